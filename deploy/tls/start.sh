#!/usr/bin/env bash
# Start the TLS front: Debian's nginx (installed when missing and running as root) before the
# gateway(s), from deploy/tls/nginx.conf.in, its files under $TABLESERVER_DATA/tls. HTTPS on
# TABLESERVER_TLS_PORT with the certificate TABLESERVER_TLS_CERT and its key TABLESERVER_TLS_KEY
# (neither given: a self-signed one made here with openssl, for a test on this machine), HTTP on
# TABLESERVER_TLS_HTTP_PORT redirected to HTTPS (and serving certbot's challenges). Returns once
# HTTPS listens; deploy/tls/stop.sh stops it. docs/operations.md: "An evening on the internet".
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
: "${TABLESERVER_GATEWAY_PORT:=8000}"
# the public address the gateway's links carry (services/common/settings.py): its host names
# the server and its certificate, its port (443 unless given) is the HTTPS port
: "${TABLESERVER_PUBLIC_URL:=https://localhost}"
authority=${TABLESERVER_PUBLIC_URL#*://}
authority=${authority%%/*}
host=${authority%%:*}
[ "$authority" = "$host" ] && public_port=443 || public_port=${authority##*:}
: "${TABLESERVER_TLS_NAME:=$host}"
: "${TABLESERVER_TLS_PORT:=$public_port}"
: "${TABLESERVER_TLS_HTTP_PORT:=80}"
: "${TABLESERVER_TLS_ADDRESS:=}"  # the address nginx listens on (empty: every one)
: "${TABLESERVER_TLS_GATEWAYS:=127.0.0.1:$TABLESERVER_GATEWAY_PORT}"  # host:port,host:port…
: "${TABLESERVER_TLS_CERT:=}"
: "${TABLESERVER_TLS_KEY:=}"
: "${TABLESERVER_NGINX:=nginx}"
dir="$TABLESERVER_DATA/tls"
pidfile="$dir/nginx.pid"
exit_if_running "$pidfile" "The TLS front" "$TABLESERVER_TLS_PORT"
if [ -n "$TABLESERVER_TLS_CERT$TABLESERVER_TLS_KEY" ]; then
  for given in TABLESERVER_TLS_CERT TABLESERVER_TLS_KEY; do
    if [ -z "${!given}" ]; then
      echo "$given is not set: give both the certificate (full chain) and its key, or" \
           "neither for a self-signed one" >&2
      exit 1
    elif [ ! -r "${!given}" ]; then
      echo "$given=${!given}: no such file to read; give both the certificate (full chain)" \
           "and its key, or neither for a self-signed one" >&2
      exit 1
    fi
  done
fi

if ! command -v "$TABLESERVER_NGINX" >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  need_root_to_install nginx "nginx (the TLS front)"
  echo "installing nginx …"
  apt_install nginx
  # Debian's package may start its own server on port 80: the TLS front runs its own.
  (service nginx stop || systemctl stop nginx) >/dev/null 2>&1 || true
fi
command -v "$TABLESERVER_NGINX" >/dev/null || TABLESERVER_NGINX=/usr/sbin/nginx
refuse_taken_port "$TABLESERVER_TLS_PORT" TABLESERVER_TLS_PORT
refuse_taken_port "$TABLESERVER_TLS_HTTP_PORT" TABLESERVER_TLS_HTTP_PORT
mkdir -p "$dir/temp" "$dir/acme"

if [ -z "$TABLESERVER_TLS_CERT$TABLESERVER_TLS_KEY" ]; then
  # self-signed, for a test here: a browser warns, and a client must be told to trust it
  TABLESERVER_TLS_CERT="$dir/self-signed-$TABLESERVER_TLS_NAME.crt"
  TABLESERVER_TLS_KEY="$dir/self-signed-$TABLESERVER_TLS_NAME.key"
  if [ ! -s "$TABLESERVER_TLS_CERT" ] || [ ! -s "$TABLESERVER_TLS_KEY" ]; then
    if [[ "$TABLESERVER_TLS_NAME" =~ ^[0-9.]+$|: ]]; then
      names="IP:$TABLESERVER_TLS_NAME"
    else
      names="DNS:$TABLESERVER_TLS_NAME"
    fi
    [ "$TABLESERVER_TLS_NAME" = localhost ] && names="$names,IP:127.0.0.1"
    openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=$TABLESERVER_TLS_NAME" \
      -addext "subjectAltName=$names" -keyout "$TABLESERVER_TLS_KEY" \
      -out "$TABLESERVER_TLS_CERT" 2>/dev/null
    chmod 600 "$TABLESERVER_TLS_KEY"
    echo "made a self-signed certificate for $TABLESERVER_TLS_NAME: $TABLESERVER_TLS_CERT"
  fi
fi

upstreams=""
IFS=, read -ra gateways <<< "$TABLESERVER_TLS_GATEWAYS"
for gateway in "${gateways[@]}"; do
  upstreams+="        server ${gateway// /} max_fails=1 fail_timeout=5s;"$'\n'
done
suffix=""
[ "$TABLESERVER_TLS_PORT" = 443 ] || suffix=":$TABLESERVER_TLS_PORT"
address=""
[ -z "$TABLESERVER_TLS_ADDRESS" ] || address="$TABLESERVER_TLS_ADDRESS:"
conf="$dir/nginx.conf"
sed -e "s|@DIR@|$dir|g" -e "s|@ADDRESS@|$address|g" \
    -e "s|@HTTPS_PORT@|$TABLESERVER_TLS_PORT|g" -e "s|@HTTP_PORT@|$TABLESERVER_TLS_HTTP_PORT|g" \
    -e "s|@HTTPS_SUFFIX@|$suffix|g" -e "s|@SERVER_NAME@|$TABLESERVER_TLS_NAME|g" \
    -e "s|@CERT@|$TABLESERVER_TLS_CERT|g" -e "s|@KEY@|$TABLESERVER_TLS_KEY|g" \
    deploy/tls/nginx.conf.in | awk -v upstreams="${upstreams%$'\n'}" \
    '$1 == "@UPSTREAMS@" { print upstreams; next } { print }' > "$conf"

if ! checked=$("$TABLESERVER_NGINX" -t -q -p "$dir" -e "$dir/error.log" -c "$conf" 2>&1); then
  echo "the TLS front's configuration ($conf) is refused:" >&2
  echo "$checked" >&2
  exit 1
fi
"$TABLESERVER_NGINX" -p "$dir" -e "$dir/error.log" -c "$conf"
wait_for_port "$TABLESERVER_TLS_PORT" 10 "the TLS front"
echo "the TLS front is up: https://$TABLESERVER_TLS_NAME$suffix/ (http on port" \
     "$TABLESERVER_TLS_HTTP_PORT redirects) before $TABLESERVER_TLS_GATEWAYS"

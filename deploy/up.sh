#!/usr/bin/env bash
# Start everything in the background: Kafka, Redis, the processor workers and the gateway.
# Returns when all are healthy. `deploy/down.sh` stops them.
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/settings.sh
: "${TABLESERVER_WORKERS:=2}"
: "${TABLESERVER_GATEWAY_PORT:=8000}"
export TABLESERVER_GATEWAY_PORT
python=.venv/bin/python
run="$TABLESERVER_DATA/run"
mkdir -p "$run"

deploy/kafka/start.sh
deploy/redis/start.sh

start() {  # start NAME COMMAND...: a service in the background, its pid in $run/NAME.pid
  local name=$1; shift
  if running "$run/$name.pid"; then
    echo "$name is already running"
    return
  fi
  nohup "$@" > "$run/$name.log" 2>&1 &
  echo $! > "$run/$name.pid"
}

running "$run/gateway.pid" || refuse_taken_port "$TABLESERVER_GATEWAY_PORT" TABLESERVER_GATEWAY_PORT
for i in $(seq 1 "$TABLESERVER_WORKERS"); do
  start "processor-$i" "$python" -m services.processor "processor-$i"
done
start gateway "$python" -m services.gateway
wait_for_port "$TABLESERVER_GATEWAY_PORT" 60 "the gateway" || { tail "$run/gateway.log" >&2; exit 1; }

# healthy: the gateway answers, and the processor workers own every shard
for _ in $(seq 1 600); do
  if "$python" -m services.health; then
    break
  fi
  sleep 0.1
done
"$python" -m services.health --verbose
echo "gateway: http://127.0.0.1:$TABLESERVER_GATEWAY_PORT (OpenAPI at /docs)"
if [ -z "${TABLESERVER_DIRECTOR_TOKEN:-}" ]; then
  echo "director token (in $TABLESERVER_DATA/director.token): $(cat "$TABLESERVER_DATA/director.token")"
fi

#!/usr/bin/env bash
# Start Debian's redis-server in the background (installing it when missing and running as
# root); data under $TABLESERVER_DATA/redis. Returns once it answers PING.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
dir="$TABLESERVER_DATA/redis"
pidfile="$dir/redis.pid"
if running "$pidfile"; then
  echo "Redis is already running (pid $(cat "$pidfile"), port $TABLESERVER_REDIS_PORT)"
  exit 0
fi
if ! command -v redis-server >/dev/null; then
  need_root_to_install redis-server "Redis"
  echo "installing redis-server …"
  apt_install redis-server
  # Debian's package may start its own server on 6379: tableserver runs its own.
  (service redis-server stop || systemctl stop redis-server) >/dev/null 2>&1 || true
fi
if port_taken "$TABLESERVER_REDIS_PORT"; then
  echo "port $TABLESERVER_REDIS_PORT is already taken: stop what uses it or set TABLESERVER_REDIS_PORT" >&2
  exit 1
fi
mkdir -p "$dir"
redis-server --port "$TABLESERVER_REDIS_PORT" --bind 127.0.0.1 --dir "$dir" \
  --daemonize yes --pidfile "$pidfile" --logfile "$dir/redis.log" \
  --save "" --appendonly no
wait_for_port "$TABLESERVER_REDIS_PORT" 10 Redis
echo "Redis is up on 127.0.0.1:$TABLESERVER_REDIS_PORT"

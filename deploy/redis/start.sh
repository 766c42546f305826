#!/usr/bin/env bash
# Start Debian's redis-server in the background (installing it when missing and running as
# root); data under $TABLESERVER_DATA/redis. Returns once it answers PING. With
# TABLESERVER_REDIS_CLUSTER=N (3 or more), a Redis Cluster of N primaries instead
# (deploy/redis/cluster-start.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
primaries=$(redis_cluster_primaries)
dir="$TABLESERVER_DATA/redis"
pidfile="$dir/redis.pid"
[ "$primaries" != 0 ] || exit_if_running "$pidfile" Redis "$TABLESERVER_REDIS_PORT"
if ! command -v redis-server >/dev/null; then
  need_root_to_install redis-server "Redis"
  echo "installing redis-server …"
  apt_install redis-server
  # Debian's package may start its own server on 6379: tableserver runs its own.
  (service redis-server stop || systemctl stop redis-server) >/dev/null 2>&1 || true
fi
[ "$primaries" = 0 ] || exec deploy/redis/cluster-start.sh
refuse_taken_port "$TABLESERVER_REDIS_PORT" TABLESERVER_REDIS_PORT
mkdir -p "$dir"
redis-server --port "$TABLESERVER_REDIS_PORT" --bind 127.0.0.1 --dir "$dir" \
  --daemonize yes --pidfile "$pidfile" --logfile "$dir/redis.log" \
  --save "" --appendonly no
wait_for_port "$TABLESERVER_REDIS_PORT" 10 Redis
echo "Redis is up on 127.0.0.1:$TABLESERVER_REDIS_PORT"

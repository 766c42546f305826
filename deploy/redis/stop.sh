#!/usr/bin/env bash
# Stop the Redis started by deploy/redis/start.sh: the one server, and every node of a Redis
# Cluster started in the same data folder (whatever TABLESERVER_REDIS_CLUSTER says now).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
stop_pidfile "$TABLESERVER_DATA/redis/redis.pid"
for pidfile in "$TABLESERVER_DATA"/redis-cluster/*/redis.pid; do
  [ -e "$pidfile" ] || continue
  stop_pidfile "$pidfile" &
done
wait

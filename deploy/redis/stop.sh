#!/usr/bin/env bash
# Stop the Redis started by deploy/redis/start.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
pidfile="$TABLESERVER_DATA/redis/redis.pid"
[ -f "$pidfile" ] || exit 0
pid=$(cat "$pidfile")
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid"
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
fi
rm -f "$pidfile"

#!/usr/bin/env bash
# Stop what deploy/up.sh started (the data stays in $TABLESERVER_DATA).
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/settings.sh
run="$TABLESERVER_DATA/run"
for pidfile in "$run"/*.pid; do
  [ -f "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
done
deploy/kafka/stop.sh
deploy/redis/stop.sh
echo "tableserver is down"

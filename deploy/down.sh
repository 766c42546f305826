#!/usr/bin/env bash
# Stop what deploy/up.sh started (the data stays in $TABLESERVER_DATA).
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/settings.sh
pidfile="$TABLESERVER_RUN/supervisord.pid"
if running "$pidfile"; then  # supervisord stops its processes (TERM, then KILL), then itself
  pid=$(cat "$pidfile")
  supervisor shutdown > /dev/null || kill "$pid"
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
fi
deploy/kafka/stop.sh
deploy/redis/stop.sh
echo "tableserver is down"

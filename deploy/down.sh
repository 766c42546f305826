#!/usr/bin/env bash
# Stop what deploy/up.sh started (the data stays in $TABLESERVER_DATA).
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/settings.sh
run="$TABLESERVER_DATA/run"
for pidfile in "$run"/*.pid; do
  stop_pidfile "$pidfile"
done
deploy/kafka/stop.sh
deploy/redis/stop.sh
echo "tableserver is down"

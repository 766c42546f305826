#!/usr/bin/env bash
# Stop the Kafka started by deploy/kafka/start.sh (its data stays).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
pidfile="$TABLESERVER_DATA/kafka/kafka.pid"
[ -f "$pidfile" ] || exit 0
pid=$(cat "$pidfile")
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid"
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
fi
rm -f "$pidfile"

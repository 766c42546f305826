#!/usr/bin/env bash
# Stop the Kafka started by deploy/kafka/start.sh, every node of it, whatever
# TABLESERVER_KAFKA_BROKERS says now (their data stays).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
dir="$TABLESERVER_DATA/kafka"
for pidfile in "$dir/kafka.pid" "$dir"/node-*/kafka.pid; do
  stop_pidfile "$pidfile" &  # at once: a node stopping alone waits for the others' quorum
done
wait

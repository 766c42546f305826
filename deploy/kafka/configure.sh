#!/usr/bin/env bash
# Write the server.properties of every Kafka node (TABLESERVER_KAFKA_BROKERS of them) from
# deploy/kafka/server.properties.in; deploy/kafka/start.sh runs this. Nothing is started.
# Node i: broker on TABLESERVER_KAFKA_PORT + 2(i-1), controller on
# TABLESERVER_KAFKA_CONTROLLER_PORT + 2(i-1), files in $(kafka_node_dir i); every node votes
# in the controllers' quorum. Replication: every node, up to 3; min.insync.replicas one less
# (at least 1).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
n=$TABLESERVER_KAFKA_BROKERS
replication=$((n < 3 ? n : 3))
min_isr=$((replication > 1 ? replication - 1 : 1))
voters=$(for i in $(seq 1 "$n"); do
  printf '%s@127.0.0.1:%s\n' "$i" "$(kafka_controller_port "$i")"; done | paste -sd, -)
for i in $(seq 1 "$n"); do
  node=$(kafka_node_dir "$i")
  mkdir -p "$node/log"
  sed -e "s|@NODE_ID@|$i|g" \
      -e "s|@VOTERS@|$voters|g" \
      -e "s|@PORT@|$(kafka_node_port "$i")|g" \
      -e "s|@CONTROLLER_PORT@|$(kafka_controller_port "$i")|g" \
      -e "s|@REPLICATION@|$replication|g" \
      -e "s|@MIN_ISR@|$min_isr|g" \
      -e "s|@LOG_DIR@|$node/log|g" deploy/kafka/server.properties.in > "$node/server.properties"
done

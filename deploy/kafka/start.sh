#!/usr/bin/env bash
# Start Apache Kafka (KRaft, one node) in the background; data under $TABLESERVER_DATA/kafka.
# Formats the storage on first start. Returns once the broker accepts connections.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
dir="$TABLESERVER_DATA/kafka"
pidfile="$dir/kafka.pid"
exit_if_running "$pidfile" Kafka "$TABLESERVER_KAFKA_PORT"
refuse_taken_port "$TABLESERVER_KAFKA_PORT" TABLESERVER_KAFKA_PORT
refuse_taken_port "$TABLESERVER_KAFKA_CONTROLLER_PORT" TABLESERVER_KAFKA_CONTROLLER_PORT
deploy/kafka/fetch.sh
libs="$TABLESERVER_KAFKA_LIBS/$TABLESERVER_KAFKA_VERSION"
mkdir -p "$dir/log"
sed -e "s|@PORT@|$TABLESERVER_KAFKA_PORT|g" \
    -e "s|@CONTROLLER_PORT@|$TABLESERVER_KAFKA_CONTROLLER_PORT|g" \
    -e "s|@LOG_DIR@|$dir/log|g" deploy/kafka/server.properties.in > "$dir/server.properties"
java_opts=(-Xmx"$TABLESERVER_KAFKA_HEAP" -Dlog4j.configuration="file:$PWD/deploy/kafka/log4j.properties")
# The broker's collections logged as Kafka's own scripts do (each pause and its length), and
# any options of the operator's (word-split on purpose: several options in one variable).
# shellcheck disable=SC2206
server_opts=(-Xlog:gc:file="$dir/gc.log":time,uptime:filecount=5,filesize=10M
             $TABLESERVER_KAFKA_JVM_OPTS)
if [ ! -f "$dir/log/meta.properties" ]; then
  cluster_id=$(java "${java_opts[@]}" -cp "$libs/*" kafka.tools.StorageTool random-uuid)
  java "${java_opts[@]}" -cp "$libs/*" kafka.tools.StorageTool format -t "$cluster_id" \
    -c "$dir/server.properties" > "$dir/format.log"
fi
nohup java "${java_opts[@]}" "${server_opts[@]}" -cp "$libs/*" kafka.Kafka "$dir/server.properties" \
  > "$dir/kafka.out" 2>&1 &
echo $! > "$pidfile"
if ! wait_for_port "$TABLESERVER_KAFKA_PORT" 60 Kafka; then
  tail -20 "$dir/kafka.out" >&2
  exit 1
fi
echo "Kafka is up on 127.0.0.1:$TABLESERVER_KAFKA_PORT (pid $(cat "$pidfile"))"

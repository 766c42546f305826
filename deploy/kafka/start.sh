#!/usr/bin/env bash
# Start Apache Kafka (KRaft) in the background: TABLESERVER_KAFKA_BROKERS nodes, each broker
# and controller, data under $TABLESERVER_DATA/kafka (node 1) and $TABLESERVER_DATA/kafka/node-I.
# Formats the storage on first start. Starts the nodes that are not running (a second start
# is a no-op); returns once every broker is registered with the cluster, or fails saying why.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
n=$TABLESERVER_KAFKA_BROKERS
if [[ ! "$n" =~ ^[1-9][0-9]*$ ]]; then
  echo "TABLESERVER_KAFKA_BROKERS must be a number of nodes (1, or 3), not '$n'" >&2
  exit 1
fi
dir="$TABLESERVER_DATA/kafka"
nodes=$(seq 1 "$n")
bootstrap=$(for i in $nodes; do echo "127.0.0.1:$(kafka_node_port "$i")"; done | paste -sd, -)
# The data knows how many nodes it was formatted for (a lone broker's data from before this
# setting: 1): another number would be another cluster, with other replication.
formatted=1
[ -f "$dir/brokers" ] && formatted=$(cat "$dir/brokers")
if [ -f "$dir/log/meta.properties" ] && [ "$formatted" != "$n" ]; then
  echo "the Kafka data in $dir is for $formatted broker(s), not $n: set" \
       "TABLESERVER_KAFKA_BROKERS=$formatted, or stop Kafka and remove $dir" >&2
  exit 1
fi

to_start=()
for i in $nodes; do
  running "$(kafka_node_dir "$i")/kafka.pid" || to_start+=("$i")
done
if [ ${#to_start[@]} = 0 ]; then
  echo "Kafka is already running ($n broker(s), $bootstrap)"
  exit 0
fi
ports=()
for i in $nodes; do ports+=("$(kafka_node_port "$i")" "$(kafka_controller_port "$i")"); done
if [ "$(printf '%s\n' "${ports[@]}" | sort -u | wc -l)" != $((2 * n)) ]; then
  echo "the ports of $n Kafka nodes overlap (${ports[*]}): move" \
       "TABLESERVER_KAFKA_CONTROLLER_PORT away from TABLESERVER_KAFKA_PORT" >&2
  exit 1
fi
for i in "${to_start[@]}"; do
  refuse_taken_port "$(kafka_node_port "$i")" TABLESERVER_KAFKA_PORT
  refuse_taken_port "$(kafka_controller_port "$i")" TABLESERVER_KAFKA_CONTROLLER_PORT
done

deploy/kafka/fetch.sh
libs="$TABLESERVER_KAFKA_LIBS/$TABLESERVER_KAFKA_VERSION"
java_opts=(-Xmx"$TABLESERVER_KAFKA_HEAP" -Dlog4j.configuration="file:$PWD/deploy/kafka/log4j.properties")
deploy/kafka/configure.sh

# One cluster id for every node, kept: a node formatted later joins the same cluster.
formatting=()
for i in "${to_start[@]}"; do
  [ -f "$(kafka_node_dir "$i")/log/meta.properties" ] || formatting+=("$i")
done
if [ ${#formatting[@]} -gt 0 ]; then
  if [ ! -f "$dir/cluster.id" ]; then
    java "${java_opts[@]}" -cp "$libs/*" kafka.tools.StorageTool random-uuid > "$dir/cluster.id"
  fi
  echo "$n" > "$dir/brokers"
  formats=()
  for i in "${formatting[@]}"; do
    node=$(kafka_node_dir "$i")
    java "${java_opts[@]}" -cp "$libs/*" kafka.tools.StorageTool format \
      -t "$(cat "$dir/cluster.id")" -c "$node/server.properties" > "$node/format.log" 2>&1 &
    formats+=($!)
  done
  for pid in "${formats[@]}"; do
    wait "$pid" || { echo "formatting a Kafka node's storage failed: see its format.log" >&2
                     exit 1; }
  done
fi

for i in "${to_start[@]}"; do
  node=$(kafka_node_dir "$i")
  # The broker's collections logged as Kafka's own scripts do (each pause and its length), and
  # any options of the operator's (word-split on purpose: several options in one variable).
  # shellcheck disable=SC2206
  server_opts=(-Xlog:gc:file="$node/gc.log":time,uptime:filecount=5,filesize=10M
               $TABLESERVER_KAFKA_JVM_OPTS)
  nohup java "${java_opts[@]}" "${server_opts[@]}" -cp "$libs/*" kafka.Kafka \
    "$node/server.properties" > "$node/kafka.out" 2>&1 &
  echo $! > "$node/kafka.pid"
done
for i in "${to_start[@]}"; do
  if ! wait_for_port "$(kafka_node_port "$i")" "$TABLESERVER_KAFKA_START_TIMEOUT" "Kafka node $i"; then
    tail -20 "$(kafka_node_dir "$i")/kafka.out" >&2
    exit 1
  fi
done
if ! .venv/bin/python -m services.cli.kafka_ready "$bootstrap" "$n" "$TABLESERVER_KAFKA_START_TIMEOUT"; then
  for i in $nodes; do
    echo "--- node $i: $(kafka_node_dir "$i")/kafka.out" >&2
    tail -5 "$(kafka_node_dir "$i")/kafka.out" >&2
  done
  exit 1
fi
pids=$(for i in $nodes; do cat "$(kafka_node_dir "$i")/kafka.pid"; done | paste -sd, -)
echo "Kafka is up: $n broker(s) on $bootstrap (pid $pids)"

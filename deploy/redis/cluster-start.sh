#!/usr/bin/env bash
# Start a Redis Cluster of $TABLESERVER_REDIS_CLUSTER primaries and no replicas (run by
# deploy/redis/start.sh): node i a daemonized redis-server without persistence, its files under
# $TABLESERVER_DATA/redis-cluster/<port>. redis-cli forms the cluster the first time; afterwards
# the nodes' files (nodes-<port>.conf) say who is in it and which slots each serves, so a
# restart forms it again by itself. Returns once every node says cluster_state:ok.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
n=$(redis_cluster_primaries)
ports=() addresses=()
for ((i = 1; i <= n; i++)); do
  ports+=("$(redis_node_port "$i")")
  addresses+=("127.0.0.1:$(redis_node_port "$i")")
done

# every port checked before any node starts: a refusal leaves nothing behind
for ((i = 1; i <= n; i++)); do
  port=$(redis_node_port "$i")
  running "$(redis_node_dir "$port")/redis.pid" && continue
  refuse_taken_port "$port" TABLESERVER_REDIS_PORT
  refuse_taken_port "$(redis_bus_port "$i")" TABLESERVER_REDIS_BUS_PORT
done
for ((i = 1; i <= n; i++)); do
  port=$(redis_node_port "$i")
  dir=$(redis_node_dir "$port")
  running "$dir/redis.pid" && continue
  mkdir -p "$dir"
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" \
    --save "" --appendonly no \
    --cluster-enabled yes --cluster-config-file "$dir/nodes-$port.conf" \
    --cluster-port "$(redis_bus_port "$i")"
done
for port in "${ports[@]}"; do
  wait_for_port "$port" 10 "Redis node $port"
done

info() {  # info PORT FIELD: a field of the node's CLUSTER INFO
  redis-cli -h 127.0.0.1 -p "$1" cluster info | tr -d '\r' | sed -n "s/^$2://p"
}

fresh=0 formed=0
for port in "${ports[@]}"; do
  known=$(info "$port" cluster_known_nodes)
  assigned=$(info "$port" cluster_slots_assigned)
  if [ "$known" = 1 ] && [ "$assigned" = 0 ]; then
    fresh=$((fresh + 1))
  elif [ "$known" = "$n" ] && [ "$assigned" = 16384 ]; then
    formed=$((formed + 1))
  fi
done
if [ "$fresh" = "$n" ]; then
  log="$TABLESERVER_DATA/redis-cluster/create.log"
  redis-cli --cluster create "${addresses[@]}" --cluster-replicas 0 --cluster-yes \
    > "$log" 2>&1 || {
    cat "$log" >&2
    echo "redis-cli could not form the cluster of ${addresses[*]} (its output above)" >&2
    exit 1
  }
elif [ "$formed" != "$n" ]; then
  echo "the Redis nodes on ports ${ports[0]}-${ports[-1]} are not one cluster of $n primaries:" \
       "their files in $TABLESERVER_DATA/redis-cluster were written for another cluster." \
       "Stop them (deploy/redis/stop.sh) and remove that folder to form a new one, or set" \
       "TABLESERVER_REDIS_CLUSTER back." >&2
  exit 1
fi

# a node restarted from its files waits about 2 s before it says ok
deadline=$((SECONDS + TABLESERVER_REDIS_START_TIMEOUT))
for port in "${ports[@]}"; do
  until [ "$(info "$port" cluster_state)" = ok ]; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "the Redis Cluster node on port $port did not say cluster_state:ok within" \
           "$TABLESERVER_REDIS_START_TIMEOUT s (TABLESERVER_REDIS_START_TIMEOUT); its log:" \
           "$(redis_node_dir "$port")/redis.log" >&2
      exit 1
    fi
    sleep 0.1
  done
done
echo "Redis Cluster is up: $n primaries on 127.0.0.1:${ports[0]}-${ports[-1]}"

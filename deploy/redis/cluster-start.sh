#!/usr/bin/env bash
# Start a Redis Cluster of $TABLESERVER_REDIS_CLUSTER primaries and no replicas (run by
# deploy/redis/start.sh): node i a daemonized redis-server without persistence, its files under
# $TABLESERVER_DATA/redis-cluster/<port>. redis-cli forms the cluster the first time; afterwards
# the nodes' files (nodes-<port>.conf) say who is in it and which slots each serves, so a
# restart forms it again by itself. Returns once every node says cluster_state:ok and sees
# every other node connected.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
n=$(redis_cluster_primaries)
ports=() addresses=()
for ((i = 1; i <= n; i++)); do
  ports+=("$(redis_node_port "$i")")
  addresses+=("127.0.0.1:$(redis_node_port "$i")")
done

another_cluster() {  # another_cluster WHY: refuse node files written for another cluster
  echo "the Redis Cluster files in $TABLESERVER_DATA/redis-cluster were written for another" \
       "cluster than $n primaries on ports ${ports[0]}-${ports[-1]} ($1). Remove that folder" \
       "(after deploy/redis/stop.sh) to form a new one, or set TABLESERVER_REDIS_CLUSTER," \
       "TABLESERVER_REDIS_PORT and TABLESERVER_REDIS_BUS_PORT back." >&2
  exit 1
}

# the node files checked before any node starts: a node started on another bus port than its
# file says rewrites it, and its peers lose its address
joined=0
for ((i = 1; i <= n; i++)); do
  port=$(redis_node_port "$i")
  file="$(redis_node_dir "$port")/nodes-$port.conf"
  [ -s "$file" ] || continue
  known=$(grep -vc '^vars' "$file" || true)
  [ "$known" -gt 1 ] || continue  # a node that never joined
  joined=$((joined + 1))
  [ "$known" = "$n" ] || another_cluster "$file names $known nodes"
  myself=$(awk '$3 ~ /myself/ { split($2, a, ","); print a[1] }' "$file")
  [ "$myself" = "127.0.0.1:$port@$(redis_bus_port "$i")" ] ||
    another_cluster "$file says this node is $myself"
done
[ "$joined" = 0 ] || [ "$joined" = "$n" ] || another_cluster "only $joined nodes had joined"

# every port checked before any node starts: a refusal leaves nothing behind
for ((i = 1; i <= n; i++)); do
  port=$(redis_node_port "$i")
  running "$(redis_node_dir "$port")/redis.pid" && continue
  refuse_taken_port "$port" TABLESERVER_REDIS_PORT
  refuse_taken_port "$(redis_bus_port "$i")" TABLESERVER_REDIS_BUS_PORT
done
started=()  # the nodes this run starts: stopped again when it fails
stop_started() {
  local pidfile
  for pidfile in "${started[@]}"; do stop_pidfile "$pidfile"; done
}
trap 'status=$?; [ "$status" = 0 ] || stop_started' EXIT
for ((i = 1; i <= n; i++)); do
  port=$(redis_node_port "$i")
  dir=$(redis_node_dir "$port")
  running "$dir/redis.pid" && continue
  mkdir -p "$dir"
  started+=("$dir/redis.pid")
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" \
    --save "" --appendonly no \
    --cluster-enabled yes --cluster-config-file "$dir/nodes-$port.conf" \
    --cluster-port "$(redis_bus_port "$i")"
done
for port in "${ports[@]}"; do
  wait_for_port "$port" 10 "Redis node $port"
done

cli() {  # cli PORT COMMAND…: the node's answer, without carriage returns
  redis-cli -h 127.0.0.1 -p "$1" "${@:2}" | tr -d '\r'
}

info() {  # info PORT FIELD: a field of the node's CLUSTER INFO
  cli "$1" cluster info | sed -n "s/^$2://p"
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
  another_cluster "$formed of the nodes serve every slot together, $fresh are new"
fi

ready() {  # ready PORT: the node says ok, and sees all n nodes with their links up
  local nodes
  [ "$(info "$1" cluster_state)" = ok ] || return 1
  nodes=$(cli "$1" cluster nodes)
  [ "$(grep -c ' connected' <<< "$nodes")" = "$n" ] && [ "$(grep -c . <<< "$nodes")" = "$n" ] &&
    ! grep -qE 'fail|noaddr|handshake' <<< "$nodes"
}

# a node restarted from its file waits about 2 s before it says ok
deadline=$((SECONDS + TABLESERVER_REDIS_START_TIMEOUT))
for port in "${ports[@]}"; do
  until ready "$port"; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "the Redis Cluster node on port $port did not say cluster_state:ok and see all $n" \
           "nodes connected within $TABLESERVER_REDIS_START_TIMEOUT s" \
           "(TABLESERVER_REDIS_START_TIMEOUT); its log: $(redis_node_dir "$port")/redis.log" >&2
      exit 1
    fi
    sleep 0.1
  done
done
echo "Redis Cluster is up: $n primaries on 127.0.0.1:${ports[0]}-${ports[-1]}"

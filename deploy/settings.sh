# Settings shared by the deploy scripts: every one can be set in the environment.
# Sourced, not run. Paths are relative to the repository root.
: "${TABLESERVER_DATA:=$PWD/.data}"
: "${TABLESERVER_KAFKA_PORT:=9092}"
: "${TABLESERVER_KAFKA_CONTROLLER_PORT:=$((TABLESERVER_KAFKA_PORT + 1))}"
# Kafka nodes (each broker and controller): 1, or 3 for a cluster that survives losing one
# (replication 3, min.insync.replicas 2). Node i listens on TABLESERVER_KAFKA_PORT + 2(i-1)
# and its controller on TABLESERVER_KAFKA_CONTROLLER_PORT + 2(i-1): 9092/9093, 9094/9095,
# 9096/9097 by default. The services read the same setting (services/common/settings.py).
: "${TABLESERVER_KAFKA_BROKERS:=1}"
: "${TABLESERVER_KAFKA_START_TIMEOUT:=60}"  # seconds for every broker to be registered
: "${TABLESERVER_REDIS_PORT:=6379}"
# Redis: 0 for one server; N (3 or more: redis-cli forms no smaller cluster) for a Redis Cluster
# of N primaries, no replicas (deploy/redis/cluster-start.sh). Node i listens on
# TABLESERVER_REDIS_PORT + i - 1 and its cluster bus on TABLESERVER_REDIS_BUS_PORT + i - 1: by
# default the ports just after the nodes' (6379-6381 and 6382-6384 for 3), not Redis's own
# port + 10000, which would be the tests' Redis (16379).
: "${TABLESERVER_REDIS_CLUSTER:=0}"
: "${TABLESERVER_REDIS_BUS_PORT:=}"
: "${TABLESERVER_REDIS_START_TIMEOUT:=30}"  # seconds for a cluster's every node to say ok
: "${TABLESERVER_KAFKA_VERSION:=3.9.1}"
: "${TABLESERVER_KAFKA_HEAP:=512m}"
: "${TABLESERVER_KAFKA_JVM_OPTS:=}"  # more options for the broker's JVM, e.g. -XX:+UseZGC
# The Kafka jars are kept apart from the data: fetched once per clone, whatever the data dir.
: "${TABLESERVER_KAFKA_LIBS:=$PWD/.data/kafka-libs}"
# The service processes `make up` runs under supervisord (deploy/supervisord.conf reads these)
: "${TABLESERVER_WORKERS:=2}"
TABLESERVER_RUN="$TABLESERVER_DATA/run"
TABLESERVER_ROOT="$PWD"
export TABLESERVER_KAFKA_LIBS TABLESERVER_DATA TABLESERVER_KAFKA_PORT TABLESERVER_KAFKA_CONTROLLER_PORT \
       TABLESERVER_KAFKA_BROKERS TABLESERVER_KAFKA_START_TIMEOUT TABLESERVER_REDIS_PORT \
       TABLESERVER_REDIS_CLUSTER TABLESERVER_REDIS_BUS_PORT TABLESERVER_REDIS_START_TIMEOUT \
       TABLESERVER_KAFKA_VERSION TABLESERVER_KAFKA_HEAP TABLESERVER_KAFKA_JVM_OPTS \
       TABLESERVER_WORKERS TABLESERVER_RUN TABLESERVER_ROOT

supervisor() {  # supervisor COMMAND…: supervisorctl on the services `make up` started
  .venv/bin/supervisorctl -c deploy/supervisord.conf "$@"
}

kafka_node_dir() {  # kafka_node_dir I: node I's files (node 1's where a lone broker keeps them)
  if [ "$1" = 1 ]; then
    echo "$TABLESERVER_DATA/kafka"
  else
    echo "$TABLESERVER_DATA/kafka/node-$1"
  fi
}

kafka_node_port() {  # kafka_node_port I: node I's broker port
  echo $((TABLESERVER_KAFKA_PORT + 2 * ($1 - 1)))
}

kafka_controller_port() {  # kafka_controller_port I: node I's controller port
  echo $((TABLESERVER_KAFKA_CONTROLLER_PORT + 2 * ($1 - 1)))
}

redis_cluster_primaries() {  # the cluster's primaries (0: one server), or a clear error
  local n=$TABLESERVER_REDIS_CLUSTER
  if ! [[ "$n" =~ ^[0-9]+$ ]] || { [ "$((10#$n))" != 0 ] && [ "$((10#$n))" -lt 3 ]; }; then
    echo "TABLESERVER_REDIS_CLUSTER=$n: say 0 for one Redis server, or 3 or more primaries for a" \
         "Redis Cluster (redis-cli forms no cluster of fewer than 3 primaries)" >&2
    return 1
  fi
  echo "$((10#$n))"
}

redis_node_port() {  # redis_node_port I: the cluster's node I (1, 2, …) listens here
  echo $((TABLESERVER_REDIS_PORT + $1 - 1))
}

redis_bus_port() {  # redis_bus_port I: node I's cluster bus (the nodes' gossip)
  local first=${TABLESERVER_REDIS_BUS_PORT:-$((TABLESERVER_REDIS_PORT + 10#$TABLESERVER_REDIS_CLUSTER))}
  echo $((first + $1 - 1))
}

redis_node_dir() {  # redis_node_dir PORT: the files of the cluster's node on PORT
  echo "$TABLESERVER_DATA/redis-cluster/$1"
}

port_taken() {  # port_taken PORT: true when something listens on 127.0.0.1:PORT
  (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

wait_for_port() {  # wait_for_port PORT SECONDS NAME
  local port=$1 seconds=$2 name=$3 i
  for ((i = 0; i < seconds * 10; i++)); do
    port_taken "$port" && return 0
    sleep 0.1
  done
  echo "$name did not start listening on port $port within $seconds s" >&2
  return 1
}

need_root_to_install() {  # need_root_to_install PACKAGE WHAT
  if [ "$(id -u)" != 0 ]; then
    echo "$2 is missing: install the Debian package '$1' (apt-get install $1), then try again." >&2
    exit 1
  fi
}

apt_install() {  # apt_install PACKAGE...
  if [ -z "${_TABLESERVER_APT_UPDATED:-}" ]; then
    apt-get update -qq >/dev/null
    _TABLESERVER_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

alive() {  # alive PID: true when the process runs (a killed one its parent has not reaped yet
  # is dead: it no longer holds its ports)
  kill -0 "$1" 2>/dev/null && [[ "$(ps -o stat= -p "$1" 2>/dev/null)" != Z* ]]
}

running() {  # running PIDFILE: true when the process in PIDFILE is alive
  [ -f "$1" ] && alive "$(cat "$1")"
}

stop_pidfile() {  # stop_pidfile PIDFILE: TERM the process, KILL it after 10 s, forget it
  local pid
  [ -f "$1" ] || return 0
  pid=$(cat "$1")
  if alive "$pid"; then
    kill "$pid"
    for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done  # its ports freed
  fi
  rm -f "$1"
}

exit_if_running() {  # exit_if_running PIDFILE NAME PORT: a second start is a no-op
  if running "$1"; then
    echo "$2 is already running (pid $(cat "$1"), port $3)"
    exit 0
  fi
}

refuse_taken_port() {  # refuse_taken_port PORT SETTING: a clear error when PORT is in use
  if port_taken "$1"; then
    echo "port $1 is already taken: stop what uses it or set $2" >&2
    exit 1
  fi
}

#!/usr/bin/env bash
# Start everything in the background: Kafka, Redis, and under supervisord (which starts again
# a process that dies) the processor workers and the gateway. Returns when all are healthy; a
# start that fails stops what it started and says why. `deploy/down.sh` stops them.
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/settings.sh
: "${TABLESERVER_GATEWAY_PORT:=8000}"
: "${TABLESERVER_TM_PORT:=2000}"  # the Table Manager host robots connect to (services/robots)
: "${TABLESERVER_UP_TIMEOUT:=60}"  # seconds for the gateway to listen, and again to be healthy
export TABLESERVER_GATEWAY_PORT TABLESERVER_TM_PORT
python=.venv/bin/python
mkdir -p "$TABLESERVER_RUN"

if running "$TABLESERVER_RUN/supervisord.pid"; then
  echo "tableserver is already up (deploy/down.sh stops it)"
  exit 0
fi
refuse_taken_port "$TABLESERVER_GATEWAY_PORT" TABLESERVER_GATEWAY_PORT
refuse_taken_port "$TABLESERVER_TM_PORT" TABLESERVER_TM_PORT

started=()
give_up() {  # stop what this script started, say why, fail
  echo "make up failed: $1; stopping what it started" >&2
  if [ -f "$TABLESERVER_RUN/supervisord.pid" ]; then
    supervisor shutdown > /dev/null 2>&1 || true
  fi
  for service in "${started[@]}"; do
    "deploy/$service/stop.sh" > /dev/null 2>&1 || true
  done
  exit 1
}
trap 'give_up "a step failed (see above)"' ERR

port_taken "$TABLESERVER_KAFKA_PORT" || started+=(kafka)
deploy/kafka/start.sh
port_taken "$TABLESERVER_REDIS_PORT" || started+=(redis)
deploy/redis/start.sh
.venv/bin/supervisord -c deploy/supervisord.conf
wait_for_port "$TABLESERVER_GATEWAY_PORT" "$TABLESERVER_UP_TIMEOUT" "the gateway" || {
  tail "$TABLESERVER_RUN/gateway.log" >&2
  give_up "the gateway did not start"
}
wait_for_port "$TABLESERVER_TM_PORT" "$TABLESERVER_UP_TIMEOUT" "the Table Manager host" || {
  tail "$TABLESERVER_RUN/robots.log" >&2
  give_up "the Table Manager host did not start"
}

# healthy: the gateway answers, Kafka and Redis are reachable, and live processor workers own
# every shard
for _ in $(seq 1 $((TABLESERVER_UP_TIMEOUT * 10))); do
  if "$python" -m services.cli.health; then
    break
  fi
  sleep 0.1
done
"$python" -m services.cli.health --verbose || give_up "not healthy within $TABLESERVER_UP_TIMEOUT s"
trap - ERR
echo "gateway: http://127.0.0.1:$TABLESERVER_GATEWAY_PORT (OpenAPI at /docs)"
if [ -n "${TABLESERVER_PUBLIC_URL:-}" ]; then
  echo "public address: $TABLESERVER_PUBLIC_URL (every link the gateway gives; its TLS front:" \
       "deploy/tls/start.sh)"
fi
echo "robots (Blue Chip Table Manager, docs/robots.md): 127.0.0.1:$TABLESERVER_TM_PORT"
if [ -z "${TABLESERVER_DIRECTOR_TOKEN:-}" ]; then
  echo "director token (in $TABLESERVER_DATA/director.token): $(cat "$TABLESERVER_DATA/director.token")"
fi

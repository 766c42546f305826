#!/usr/bin/env bash
# Stop the Kafka started by deploy/kafka/start.sh (its data stays).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
stop_pidfile "$TABLESERVER_DATA/kafka/kafka.pid"

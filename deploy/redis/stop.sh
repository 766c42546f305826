#!/usr/bin/env bash
# Stop the Redis started by deploy/redis/start.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
stop_pidfile "$TABLESERVER_DATA/redis/redis.pid"

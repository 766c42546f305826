#!/usr/bin/env bash
# Stop the TLS front deploy/tls/start.sh started (its open sockets close; the pages reconnect
# when it is back).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
stop_pidfile "$TABLESERVER_DATA/tls/nginx.pid"

#!/usr/bin/env bash
# supervisorctl on the services `make up` started: deploy/ctl.sh status | restart gateway | …
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/settings.sh
supervisor "$@"

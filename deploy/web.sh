#!/bin/sh
# One web process: Daphne serving config.asgi on $BIND:$PORT. The Docker image's default
# command, docker-compose's web service and tests/scale all start exactly this script,
# so what the scale-out suite tests is what a deployment runs.
set -eu
cd "$(dirname "$0")/.."
# --proxy-headers: take the client's address and scheme from the proxy's X-Forwarded-*
# headers. Only the proxy can reach these processes, so only it can set them.
exec daphne -b "${BIND:-0.0.0.0}" -p "${PORT:-8000}" --proxy-headers config.asgi:application

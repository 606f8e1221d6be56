#!/bin/sh
# Collect the static files into $STATIC_ROOT with hashed, compressed names, as
# production (DEBUG=0) serves them through WhiteNoise. Run when the image is built, and
# by the scale-out suite before it starts its production-mode processes.
set -eu
cd "$(dirname "$0")/.."
exec python manage.py collectstatic --noinput -v 0

#!/bin/sh
# Bring the database schema up to date: docker-compose's one-shot migrate service, and
# the scale-out suite on its own database. Safe to run again; run it before new web
# processes start.
set -eu
cd "$(dirname "$0")/.."
exec python manage.py migrate --noinput

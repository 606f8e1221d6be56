# The two commands: `make run` serves the site, `make test` runs every test.
# Everything a fresh Debian machine with Python 3.11 needs is installed from here.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test test-engine test-web test-e2e test-scale lint bench install browser nginx migrate clean

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $(STAMP)

install: $(STAMP)

# Debian's Chromium drives the browser tests; Playwright's own browser download is not used.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }

migrate: install
	$(PY) manage.py migrate --noinput

run: install migrate
	$(PY) manage.py collectstatic --noinput -v 0
	$(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict solitaire

test: install browser lint
	$(PY) -m pytest tests/engine tests/web tests/e2e

test-engine: install
	$(PY) -m pytest tests/engine

# The scale-out suite (issue 5) on a real PostgreSQL and Redis: Daphne processes started
# as docker-compose.yml starts them, then the single-player and race suites once more on
# PostgreSQL and Redis. Without the services it is skipped; with CI set, it fails.
DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
REDIS_URL ?= redis://127.0.0.1:6379/0
SCALE_ENV := DATABASE_URL=$(DATABASE_URL) REDIS_URL=$(REDIS_URL)

# nginx runs docker-compose's proxy configuration in the scale-out suite. Only the binary
# is wanted: if the package started its own service, it is stopped again.
nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
	  echo "installing Debian's nginx-light"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; \
	  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet nginx 2>/dev/null; then \
	    systemctl disable --now nginx; fi; }

test-scale: install nginx
	@$(SCALE_ENV) $(PY) tests/scale/check_services.py; status=$$?; \
	  if [ $$status -ne 0 ] && [ $$status -ne 3 ]; then exit $$status; fi; \
	  set -ex; \
	  $(SCALE_ENV) $(PY) -m pytest tests/scale; \
	  if [ $$status -eq 0 ]; then $(SCALE_ENV) $(PY) -m pytest tests/web -p tests.scale.layer_per_test; fi

# Benchmarks, each beside its baseline from the same run (issue 6, docs/performance.md):
# the engine, then a fresh Daphne per phase on a throwaway SQLite database, or on
# PostgreSQL and Redis when DATABASE_URL and REDIS_URL are set in the environment.
# Prints a table and writes bench/results/latest.json; takes about five minutes.
bench: install
	$(PY) -m bench --json bench/results/latest.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache staticfiles

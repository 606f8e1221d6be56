# The two commands: `make run` serves the site, `make test` runs every test.
# Everything a fresh Debian machine with Python 3.11 needs is installed from here.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test test-engine test-web test-e2e test-scale lint bench install browser migrate clean

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

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache staticfiles

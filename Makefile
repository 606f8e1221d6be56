# The two commands: `make run` serves the site, `make test` runs every test.
# Everything a fresh Debian machine with Python 3.11 needs is installed from here.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test test-quick test-engine test-web test-e2e test-security test-scale lint bench install browser nginx migrate lock clean

# Runtime and development requirements are both pinned: requirements.txt is what the
# site needs (and all the Docker image installs), requirements-dev.txt adds tests and tools.
$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $(STAMP)

# The solver's hot modules compiled to C by mypyc (solitaire/tools/compile.py); the .py
# files stay the reference, and a test compares the two. Rebuilt when a source changes.
COMPILED := solitaire/compiled.stamp
COMPILED_SOURCES := solitaire/_klondike_search.c solitaire/_casket_search.c solitaire/_native_search.h solitaire/_native_python.h solitaire/_native_dfs_loop.h solitaire/_native_bfs_loop.h solitaire/bounds.py solitaire/solver.py solitaire/solver_klondike.py solitaire/solver_casket.py solitaire/tools/compile.py
$(COMPILED): $(STAMP) $(COMPILED_SOURCES)
	@command -v gcc >/dev/null 2>&1 || { echo "installing Debian's gcc"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc >/dev/null; }
	@$(PY) -c "import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" \
	  || { echo "installing Debian's python3-dev"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-dev >/dev/null; }
	$(PY) -m solitaire.tools.compile > $(VENV)/compile.log 2>&1 || { cat $(VENV)/compile.log; exit 1; }

install: $(STAMP) $(COMPILED)

# Debian's Chromium drives the browser tests; Playwright's own browser download is not used.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }

# `make run` serves the site as production does: DEBUG is off unless you say DEBUG=1.
# Secrets not in the environment are generated once into var/ (GENERATE_SECRETS=1);
# secrets given in the environment must be strong (docs/security.md).
DEBUG ?= 0
RUN_ENV := DEBUG=$(DEBUG) GENERATE_SECRETS=1

migrate: install
	$(RUN_ENV) $(PY) manage.py migrate --noinput

run: install migrate
	$(RUN_ENV) $(PY) manage.py collectstatic --noinput -v 0
	$(RUN_ENV) $(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=1 $(VENV)/bin/mypy --strict solitaire games

test: install browser lint
	$(PY) -m pytest tests/engine tests/web tests/security tests/races_bots tests/e2e

# The quick loop: everything not marked slow, without the browser.
test-quick: install
	$(PY) -m pytest -m "not slow" tests/engine tests/web tests/races_bots

# The abuse checks and the fuzz test (issue 11).
test-security: install
	$(PY) -m pytest tests/security

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

# Re-pin both requirement sets from their .in files, in throwaway virtualenvs.
lock:
	rm -rf $(VENV)-lock && $(PYTHON) -m venv $(VENV)-lock
	$(VENV)-lock/bin/pip install -q -r requirements.in
	{ echo "# Pinned runtime tree from requirements.in (what the Docker image installs)."; \
	  echo "# Regenerate: make lock"; $(VENV)-lock/bin/pip freeze; } > requirements.txt
	$(VENV)-lock/bin/pip freeze > $(VENV)-lock/runtime.txt
	$(VENV)-lock/bin/pip install -q -r requirements-dev.in
	{ echo "# Pinned development tree from requirements-dev.in: requirements.txt's pins plus tests and tools."; \
	  echo "# Regenerate: make lock"; echo "-r requirements.txt"; \
	  $(VENV)-lock/bin/pip freeze --all | grep -v "^pip==" | grep -vxF -f $(VENV)-lock/runtime.txt; } > requirements-dev.txt
	rm -rf $(VENV)-lock

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache staticfiles
	rm -f solitaire/*.so solitaire/compiled.stamp

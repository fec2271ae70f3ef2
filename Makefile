# Two commands matter: `make demo` and `make test`. Everything else is a step they share.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# ESLint and its rules, from package-lock.json (npm ci), for the browser scripts in static/.
NODE_STAMP := node_modules/.installed
# Debian packages the tests drive for real: a browser, a database server, Redis (the shared
# rate limits and task queue), nginx (the deployment of deploy/) and Node.js (for ESLint and the
# test that runs static/assess/passages.js), where the machine has none.
SYSTEM_PACKAGES := chromium postgresql redis-server nginx nodejs npm

.PHONY: demo test install build-tools system-packages lint jslint typecheck pytest benchmarks clean

# The C sources are built by the install (pyproject.toml: ext-modules).
$(STAMP): pyproject.toml $(wildcard focal/evaluation/*/*/*.c focal/evaluation/*/*/*.h)
	@$(MAKE) --no-print-directory build-tools
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing: make system-packages installs Debian's nodejs and npm" >&2; exit 2; }
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

# A C compiler and the Python headers, for the article engine's C module (pyproject.toml:
# ext-modules), from Debian when they are missing (needs root or sudo).
build-tools:
	@missing=""; \
	command -v cc >/dev/null 2>&1 || missing="$$missing gcc"; \
	$(PYTHON) -c "import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" || missing="$$missing python3-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# Installs Chromium, PostgreSQL, Redis, nginx and Node.js (with npm) from Debian when they are
# missing (needs root or sudo).
system-packages:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	[ -x /usr/bin/redis-server ] || missing="$$missing redis-server"; \
	[ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

demo: install
	$(BIN)/focal demo

lint: install jslint
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# The browser scripts (static/, native ES modules): ESLint's recommended rules (eslint.config.js).
jslint: $(NODE_STAMP)
	node_modules/.bin/eslint .

typecheck: install
	$(BIN)/mypy

# One pytest worker per core (pytest-xdist); each test file stays on one worker, so a module's
# fixtures are built once. A worker starts its own Chromium and throw-away PostgreSQL when its
# tests need them. PYTEST_WORKERS=0 runs everything in one process.
PYTEST_WORKERS ?= auto
pytest: install system-packages
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile

test: install system-packages lint typecheck pytest

# -P keeps benchmarks/ off sys.path: benchmarks/pooling.py must not shadow the pooling package.
# table.py runs peers.py, articles.py and passages.py (the table of docs/performance.md); the loop
# runs the others. INEX_EVAL=PATH gives the INEX program, BENCH_INEX=1 adds the INEX-scale pool.
# speed_goals.py comes last and prints the speed goals' table (SPEED_SCALE=0.1 for a quick run).
SPEED_SCALE ?= 1
benchmarks: install system-packages
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python -P benchmarks/table.py
	for b in benchmarks/*.py; do case $$b in */table.py|*/peers.py|*/articles.py|*/passages.py|*/speed_*.py) continue;; esac; \
		echo "== $$b"; $(BIN)/python -P $$b || exit 1; done
	$(BIN)/python -P benchmarks/speed_goals.py --scale $(SPEED_SCALE)

clean:
	rm -rf $(VENV) node_modules .mypy_cache .pytest_cache .ruff_cache

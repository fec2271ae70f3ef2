# Two commands matter: `make demo` and `make test`. Everything else is a step they share.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Debian packages the tests drive for real: a browser and a database server.
SYSTEM_PACKAGES := chromium postgresql

.PHONY: demo test install system-packages lint typecheck pytest benchmarks clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# Installs Chromium and PostgreSQL from Debian when they are missing (needs root or sudo).
system-packages:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

demo: install
	$(BIN)/focal demo

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

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
benchmarks: install system-packages
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python -P benchmarks/table.py
	for b in benchmarks/*.py; do case $$b in */table.py|*/peers.py|*/articles.py|*/passages.py) continue;; esac; \
		echo "== $$b"; $(BIN)/python -P $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

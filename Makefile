# make run   - install into .venv, then the production start (bin/serve): migrate, the demo on an
#              empty database, static files, gunicorn (HOST=0.0.0.0 serves the venue's network)
# make test  - the checks and the test suite before every commit (SQLite, or the database in DATABASE_URL)
# make test-full - the heavy end-to-end walks and every property test's examples (.ci/run)
# make docs  - the manual (docs/, mkdocs.yml) built into site/; a broken link or a missing page fails
# make dev   - for developers only: Django's development server with DEBUG and auto-reload
# Both first run bin/system-packages, which installs the Debian packages the machine lacks
# (as root) or names the command to run; NEED says how much: run, test or ci.
PYTHON_BIN ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
DEV := DEBUG=1
NEED ?= run

.PHONY: system-packages run dev docs test test-suite test-full image-test hosted-test install lock messages bench-standings bench-seating bench-seating-rules bench-entry bench-public bench-pdf bench-import bench-exports bench-backup bench-hall bench-volume walk-season clean

system-packages:
	@PYTHON_BIN="$(PYTHON_BIN)" sh bin/system-packages $(NEED)

# One stamp per level: `run` installs the runtime dependencies only, `test` adds the test
# extras (pytest, Playwright, ...) on top; each is redone only when pyproject.toml or its lock
# changes. Both install the exact versions of the lock (requirements/, `make lock`), then the
# project itself with nothing more (--no-deps; its build tool, setuptools, is in the lock too).
$(VENV)/.installed-run: pyproject.toml setup.py requirements/run.txt | system-packages
	$(PYTHON_BIN) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet --require-hashes -r requirements/run.txt
	$(VENV)/bin/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed-run requirements/test.txt
	$(VENV)/bin/pip install --quiet --require-hashes -r requirements/test.txt
	touch $@

$(VENV)/.installed-ci: $(VENV)/.installed-test
	touch $@

# Benchmarks need the runtime only, but for bench-hall's load tool (Locust), whose exact
# version is in the test lock.
$(VENV)/.installed-bench: $(VENV)/.installed-run requirements/test.txt
	$(VENV)/bin/pip install --quiet --require-hashes -r requirements/test.txt
	touch $@

install: $(VENV)/.installed-$(NEED)

# The lock: the exact versions, with their hashes, of everything `make run` (requirements/run.txt),
# `make test` (requirements/test.txt) and the container image install. `make lock` refreshes it
# to the newest versions pyproject.toml allows; `make lock LOCK_ARGS=` only follows a change of
# pyproject.toml and keeps every other version. Commit the result.
LOCK_ARGS ?= --upgrade
PIP_COMPILE = CUSTOM_COMPILE_COMMAND="make lock" $(VENV)/bin/pip-compile --quiet --generate-hashes \
	--allow-unsafe --strip-extras --all-build-deps --no-emit-index-url --no-emit-find-links $(LOCK_ARGS)
lock: $(VENV)/.installed-run
	$(VENV)/bin/pip install --quiet pip-tools
	$(PIP_COMPILE) --output-file requirements/run.txt pyproject.toml
	$(PIP_COMPILE) --extra test --constraint requirements/run.txt --output-file requirements/test.txt pyproject.toml

# HOST=0.0.0.0 serves the venue's network: the tablets' address is printed, and QR codes and
# printed links carry it (PUBLIC_URL=http://address:port overrides it). The server and its
# options are bin/serve's (config/serve.py, config/gunicorn.conf.py), which bench-hall measures.
run: system-packages $(VENV)/.installed-run
	@HOST=$(HOST) PORT=$(PORT) PYTHON=$(PY) bin/serve

# Developers only: debug pages and auto-reload, never at a venue.
dev: system-packages $(VENV)/.installed-run
	$(DEV) $(PY) manage.py migrate --noinput
	$(DEV) $(PY) manage.py load_demo --if-empty
	$(DEV) LISTEN_HOST=$(HOST) $(PY) manage.py runserver $(HOST):$(PORT)

# The lint (ruff), the floor plan (import-linter's contracts in pyproject.toml) and the types (mypy:
# the engine, every app's services and selectors, [tool.mypy] in pyproject.toml) first, then
# the engine's tests with no Django at all (no settings module, the pytest-django plugin off), then
# the whole suite but for the heavy end-to-end walks (marked `full`: `make test-full` runs them).
# Each phase prints its time (bin/test-phase), and the run ends with the suite's 25 slowest tests
# and the time of every phase (docs/developers/tests.md). Both test runs are spread over
# TEST_WORKERS processes by pytest-xdist (one more than the cores, since many tests wait on a
# server, a browser or a subprocess; 0: none); each worker has its own test database, and each
# test its own data folder and error log (tests/conftest.py); a module marked xdist_group (one
# server for its tests) stays on one worker; the tests with servers and processes of their own go
# first (tests/conftest.py). Property tests try a quarter of their examples and the engine's sweeps
# over field sizes every third size (HYPOTHESIS_PROFILE=quick, engine/tests/examples.py);
# `make test-full` runs them all.
# PYTEST_ARGS are added to the suite's run, e.g. PYTEST_ARGS='-m "not browser"'.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
HYPOTHESIS_PROFILE ?= quick
export HYPOTHESIS_PROFILE
PYTEST = env TESTING=1 $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=25
SUITE = $(PYTEST) $(PYTEST_ARGS)
ENGINE_TESTS = env -u DJANGO_SETTINGS_MODULE $(PY) -m pytest -p no:django -W "ignore::pytest.PytestConfigWarning" -q -n $(TEST_WORKERS)
test: NEED = test
test: system-packages $(VENV)/.installed-test
	@phases=$$(mktemp) && trap 'echo "== make test:"; cat "$$phases"; rm -f "$$phases"' EXIT && export TEST_PHASES="$$phases" && \
	bin/test-phase ruff $(VENV)/bin/ruff check . && \
	bin/test-phase format $(VENV)/bin/ruff format --check . && \
	bin/test-phase lint-imports $(VENV)/bin/lint-imports && \
	bin/test-phase mypy $(VENV)/bin/mypy && \
	bin/test-phase engine $(ENGINE_TESTS) engine/tests && \
	bin/test-phase suite $(SUITE)

# The suite alone, without the checks and the engine's tests, which no database changes: .ci/run's
# second run, on PostgreSQL (with PYTEST_ARGS=--full, the walks too).
test-suite: NEED = test
test-suite: system-packages $(VENV)/.installed-test
	$(SUITE)

# What `make test` leaves out, for .ci/run (and before a release): the heavy end-to-end walks (the
# whole day in Chromium, `make run` as an organiser starts it, the README's commands, every
# benchmark's smallest run, the kill -9 drills, ...: the tests marked `full`), every property
# test with all its examples (HYPOTHESIS_PROFILE=full), the engine's and the suite's, and the
# engine's sweeps over every field size (engine/tests/examples.py).
test-full: NEED = test
test-full: HYPOTHESIS_PROFILE = full
test-full: system-packages $(VENV)/.installed-test
	@phases=$$(mktemp) && trap 'echo "== make test-full:"; cat "$$phases"; rm -f "$$phases"' EXIT && export TEST_PHASES="$$phases" && \
	bin/test-phase engine-full $(ENGINE_TESTS) engine/tests && \
	bin/test-phase full $(PYTEST) -m "full or hypothesis" $(PYTEST_ARGS)

# The container image (Dockerfile, compose.yaml) built and checked as an organiser uses it, with
# Podman and podman-compose in place of Docker Desktop; bin/image-test prints each check and the
# build's time. .ci/run runs it after the test suites.
image-test: NEED = ci
image-test: system-packages $(VENV)/.installed-run
	$(PY) bin/image-test

# The hosted service (compose.hosted.yaml's parts, from Debian's packages, on loopback, started from
# deploy/systemd/'s units and a settings file like deploy/hosted.env.example) under six halls' load
# while one app server, the worker and Redis fail and PostgreSQL restarts and stops for 15 s
# (bench/hosted_test.py prints one line and fails on a lost save, a 5xx after the database is back,
# a worker that did not outlive it, a sign-out, a missing snapshot, a file on an app server, ...).
# .ci/run runs it after the test suites.
hosted-test: NEED = ci
hosted-test: system-packages $(VENV)/.installed-test
	$(PY) bench/hosted_test.py

# The manual: docs/ built with MkDocs (Material theme) into site/; --strict fails on a broken link,
# a missing anchor or a page left out of mkdocs.yml's nav. tests/system/test_docs_build.py runs it too.
DOCS_SITE ?= site
docs: NEED = test
docs: system-packages $(VENV)/.installed-test
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir $(DOCS_SITE)

messages: NEED = test
messages: system-packages $(VENV)/.installed-test
	$(DEV) $(PY) manage.py makemessages -l pl -l en --ignore='.venv/*' --ignore='var/*' --ignore='tests/*' --ignore='bench/*'
	$(DEV) $(PY) manage.py compilemessages --ignore='.venv/*'

# Benchmarks print their figures and budgets; BENCH_ARGS=--smoke runs the smallest setting,
# `make bench-entry BENCH_ARGS=--postgres` saves games on a throwaway PostgreSQL cluster.
bench-standings: install
	$(PY) bench/bench_standings.py $(BENCH_ARGS)

bench-seating: install
	$(PY) bench/bench_seating.py $(BENCH_ARGS)

# The second round's rules (SPEC §5) against what is possible, over many random fields.
bench-seating-rules: NEED = test
bench-seating-rules: system-packages $(VENV)/.installed-test
	SEATING_RULE_EXAMPLES=1000 TESTING=1 $(PY) -m pytest -n 0 -q engine/tests/test_seating_second_round.py

clean:
	rm -rf var/db.sqlite3* var/test.sqlite3*

bench-entry: install
	$(PY) bench/bench_entry.py $(BENCH_ARGS)

bench-public: install
	$(PY) bench/bench_public.py $(BENCH_ARGS)

bench-pdf: install
	$(PY) bench/bench_pdf.py $(BENCH_ARGS)

bench-import: install
	$(PY) bench/bench_import.py $(BENCH_ARGS)

bench-exports: install
	$(PY) bench/bench_exports.py $(BENCH_ARGS)

bench-backup: install
	$(PY) bench/bench_backup.py $(BENCH_ARGS)

# A service's size: every page with 2 organisations and with 200 (PostgreSQL, a cluster of its
# own): BENCH_ARGS=--ci (20 organisations x 10 tournaments), --smoke.
bench-volume: install
	$(PY) bench/bench_volume.py $(BENCH_ARGS)

# A federation's season walked in Chromium through the pages (issue 48): `bin/serve` on a free port
# over a fresh VAR_DIR, every page met checked and kept at 390x844 and 1280x720 in var/season-walk/
# (BENCH_ARGS=--out DIR), the PDFs rendered to PNG; one line per step with its time.
walk-season: NEED = test
walk-season: system-packages $(VENV)/.installed-test
	$(PY) bench/season_walk.py $(BENCH_ARGS)

# The whole venue at once (Locust): BENCH_ARGS=--postgres, --faults, --smoke.
bench-hall: $(VENV)/.installed-bench
	$(PY) bench/bench_hall.py $(BENCH_ARGS)

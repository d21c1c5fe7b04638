# make run   - install into .venv, migrate, load the demo on an empty database, serve
# make test  - the whole test suite (SQLite, or the database in DATABASE_URL)
PYTHON_BIN ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
DEV := DEBUG=1

.PHONY: run test install messages bench-standings bench-seating bench-entry bench-public bench-pdf clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON_BIN) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

run: install
	$(DEV) $(PY) manage.py migrate --noinput
	$(DEV) $(PY) manage.py load_demo --if-empty
	@echo "Serving on http://$(HOST):$(PORT)/ (staff: /accounts/login/, public: /t/senioriada-demo/)"
	$(DEV) ALLOWED_HOSTS='*' $(PY) manage.py runserver $(HOST):$(PORT)

test: install
	TESTING=1 $(PY) -m pytest $(PYTEST_ARGS)

messages: install
	$(DEV) $(PY) manage.py makemessages -l pl -l en --ignore='.venv/*' --ignore='var/*' --ignore='tests/*' --ignore='bench/*'
	$(DEV) $(PY) manage.py compilemessages --ignore='.venv/*'

# Benchmarks print their figures and budgets; BENCH_ARGS=--smoke runs the smallest setting,
# `make bench-entry BENCH_ARGS=--postgres` saves games on a throwaway PostgreSQL cluster.
bench-standings: install
	$(PY) bench/bench_standings.py $(BENCH_ARGS)

bench-seating: install
	$(PY) bench/bench_seating.py

clean:
	rm -rf var/db.sqlite3* var/test.sqlite3*

bench-entry: install
	$(PY) bench/bench_entry.py $(BENCH_ARGS)

bench-public: install
	$(PY) bench/bench_public.py $(BENCH_ARGS)

bench-pdf: install
	$(PY) bench/bench_pdf.py $(BENCH_ARGS)

# tableserver — see README.md. `make test` and `make run` set everything up themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The browser tests (tests/browser/test_pages.py) drive Debian's Chromium with Playwright,
# whose own browser download cannot be had here.
CHROMIUM ?= /usr/bin/chromium
# The TLS front's tests (tests/integration/test_tls_front.py, tests/browser/test_tls_seat.py)
# run Debian's nginx before a gateway, as deploy/tls/start.sh does for a club.
NGINX ?= /usr/sbin/nginx

.PHONY: install browser nginx test test-unit check lint typecheck bench run up down clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "tableserver needs Python 3.11 or newer (set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Chromium for the browser tests: Debian's package, installed when missing and run as root.
browser:
	@if [ ! -x "$(CHROMIUM)" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	fi
	@[ -x "$(CHROMIUM)" ] || { echo "the browser tests need Chromium at $(CHROMIUM): install" \
		"Debian's package (sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium"; \
		exit 1; }

# nginx for the TLS front's tests: Debian's package, installed when missing and run as root.
nginx:
	@if [ ! -x "$(NGINX)" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing Debian's nginx for the TLS front's tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; \
	fi
	@[ -x "$(NGINX)" ] || { echo "the TLS front's tests need nginx at $(NGINX): install" \
		"Debian's package (sudo apt-get install nginx) or set NGINX=/path/to/nginx"; \
		exit 1; }

# Everything (lint, types, every test), the 30 slowest tests named at the end
test: install browser nginx check
	TABLESERVER_CHROMIUM=$(CHROMIUM) TABLESERVER_NGINX=$(NGINX) $(PY) -m pytest --durations=30

# The inner loop: the unit tests alone (tests/unit: no service; no lint, no types), collected
# from their folder (`-m unit` imports every test module to deselect the others) without the
# pytest plugins of schemathesis and anyio, which no unit test uses (2.5 s of CPU at start),
# their bytecode and pytest's rewritten tests kept in __pycache__ even where the environment
# says not to write it (PYTHONDONTWRITEBYTECODE: 5 s of CPU compiling them again each run)
test-unit: install
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest tests/unit -p no:schemathesis -p no:anyio -n auto

# ruff, then mypy strict on shared/ and services/ (`make test` runs it first)
check: lint typecheck

lint: install
	$(VENV)/bin/ruff check shared services tests bench

typecheck: install
	$(VENV)/bin/mypy shared
	$(VENV)/bin/mypy --strict services

bench: install
	$(PY) bench/fold_bench.py
	$(PY) bench/convert_bench.py
	$(PY) bench/replay_bench.py --events 10000
	$(PY) bench/decode_bench.py
	$(PY) bench/state_read_bench.py
	$(PY) bench/robots_bench.py --boards 8 --samples 20
	$(PY) bench/robots_bench.py --pace 1,8,32,64 --processes 0,$$(nproc) --think 3 --seconds 90
	$(PY) bench/robot_match.py --boards 12 --samples 5 --system natural
	$(PY) bench/robot_match.py --boards 12 --samples 5 --system sayc
	$(PY) bench/robot_match.py --pace 1,8,32 --seconds 30
	$(PY) bench/scores_bench.py
	$(PY) bench/results_bench.py
	$(PY) bench/hand_records_bench.py --boards 36
	TABLESERVER_CHROMIUM=$(CHROMIUM) $(PY) bench/results_page_bench.py --samples 40
	$(PY) bench/pipeline_bench.py --tables 1000 --rate 500 --seconds 60 --timeline
	$(PY) bench/pipeline_bench.py --tables 1000 --rate 100 --seconds 20
	$(PY) bench/pipeline_bench.py --tables 1000 --rate 500 --seconds 25 --play --follow 200
	$(PY) bench/pipeline_bench.py --tables 1000 --rate 1000 --seconds 30 --play
	$(PY) bench/pipeline_bench.py --tables 1000 --rate 1000 --seconds 30 --play --redis-cluster 3
	$(PY) bench/floor_bench.py --tables 1000 --rate 1000 --seconds 20
	$(PY) bench/paired_bench.py pipeline --tables 1000 --rates 400,1000 --slices 6 --seconds 10
	$(PY) bench/instructions_bench.py
	$(PY) bench/feed_render_bench.py
	$(PY) bench/feed_bench.py --sockets 1000,5000,10000
	$(PY) bench/fanout_floor.py --sockets 1000 5000 10000
	$(PY) bench/hot_fanout_profile.py --sockets 2000 --updates 50
	$(PY) bench/paired_bench.py hot --sockets 10000 --slices 6 --seconds 5
	$(PY) bench/shard_start_bench.py --tables 1000 --runs 3
	$(PY) bench/tournament_bench.py --tables 1000 --boards 3
	$(PY) bench/entries_bench.py --entries 500 --paced 60
	$(PY) bench/evening_bench.py --tables 250 --rounds 6 --boards 3
	$(PY) bench/evening_bench.py --tables 250 --rounds 3 --boards 3 --clock 0.75 --slow 0.1 --drop 0.1 --after 5
	$(PY) bench/night_bench.py --tables 3750 --pace 6 --spectators 2000 --seconds 60
	$(PY) bench/setup_floor.py --tables 3750
	$(PY) bench/history_bench.py --tables 100 --events 100 --concurrency 50
	$(PY) bench/topics_bench.py --levels 1000,4000,10000 --restart
	$(PY) bench/redis_bench.py --tables 1000 --boards 1
	$(PY) bench/lifecycle_bench.py --tables 100 --events 100
	$(PY) bench/overload_bench.py --tables 600
	TABLESERVER_CHROMIUM=$(CHROMIUM) $(PY) bench/pages_bench.py --boards 20

up: install
	deploy/up.sh

down:
	deploy/down.sh

# The main job: everything up, a demo tournament live in the terminal; Ctrl-C stops all.
run: install  # the demo's public pages 30 s behind its tables (15 min otherwise: operations.md)
	TABLESERVER_SPECTATOR_DELAY=$${TABLESERVER_SPECTATOR_DELAY:-30} deploy/up.sh
	@bash -c 'trap "deploy/down.sh" EXIT; $(PY) -m services.cli.demo'

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis

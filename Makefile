# tableserver — see README.md. `make test` and `make run` set everything up themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test lint typecheck bench run clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "tableserver needs Python 3.11 or newer (set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: install lint typecheck
	$(PY) -m pytest

lint: install
	$(VENV)/bin/ruff check shared services tests bench

typecheck: install
	$(VENV)/bin/mypy shared

bench: install
	$(PY) bench/fold_bench.py

run: install
	@echo "The live pipeline (Kafka, the processor, the gateway and the demo) is not built yet."
	@echo "What runs today is the Laws engine on a real board:"
	$(VENV)/bin/tableserver fold --text tests/data/demo-board.jsonl

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis

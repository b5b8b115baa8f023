# Everything a fresh Debian / Raspberry Pi OS machine needs, from nothing.
VENV   ?= .venv
PYTHON ?= python3
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean system-deps

$(STAMP): pyproject.toml scripts/install-system-deps.sh
	bash scripts/install-system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

system-deps:
	bash scripts/install-system-deps.sh

run: $(STAMP)
	$(BIN)/companion run --simulate --delay 0.02

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check companion vision tests bench firmware
	$(BIN)/ruff format --check companion vision tests bench firmware

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/clock.py
	$(BIN)/python bench/reader.py
	$(BIN)/python bench/stream.py
	$(BIN)/python bench/vision.py
	$(BIN)/python bench/pipeline.py
	$(BIN)/python bench/mem.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

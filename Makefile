# The two commands a new user needs: `make demo` and `make test`.
# Both create the virtual environment and install kangle into it first.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/kangle demo

test: $(STAMP)
	$(BIN)/ruff check .
	SDL_VIDEODRIVER=dummy $(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/physics.py
	$(BIN)/python benchmarks/rummikub_meld.py
	$(BIN)/python benchmarks/ttr_longest.py
	$(BIN)/python benchmarks/detection.py
	$(BIN)/python benchmarks/tracking.py
	$(BIN)/python benchmarks/tiles.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache

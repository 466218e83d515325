# The two commands a new user needs: `make demo` and `make test`.
# Both create the virtual environment and install kangle into it first.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test fuzz lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/kangle demo

# The suite runs in one process per core (at most four), each test file whole in one of
# them: a file's tests share its fixtures, and the PostgreSQL tests one database.
# TEST_WORKERS=0 runs it in this process alone.
TEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/ruff check .
	SDL_VIDEODRIVER=dummy $(BIN)/python -m pytest -n $(TEST_WORKERS) --maxprocesses 4 \
		--dist loadfile

# A long random search for new failing cases of the property tests (make test runs them
# derandomized); a case it finds becomes an explicit example or a unit test.
FUZZ_MINUTES ?= 20
fuzz: $(STAMP)
	SDL_VIDEODRIVER=dummy KANGLE_HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest \
		tests/test_referee_properties.py
	SDL_VIDEODRIVER=dummy $(BIN)/python -m tests.fuzz_commands --minutes $(FUZZ_MINUTES)

bench: $(STAMP)
	$(BIN)/python benchmarks/physics.py
	$(BIN)/python benchmarks/rummikub_meld.py
	$(BIN)/python benchmarks/ttr_longest.py
	$(BIN)/python benchmarks/detection.py
	$(BIN)/python benchmarks/tracking.py
	$(BIN)/python benchmarks/tiles.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache

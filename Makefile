# Common tasks. Every target creates the virtual environment it needs.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
STARTUP := $(VENV)/.startup

.PHONY: setup book serve test lint release lab formgrader normalize clean bench architecture

setup: $(STAMP) $(STARTUP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Every process of the environment runs autograder/startup.py first (it defers a 3 s import).
$(STARTUP): autograder/startup.py | $(STAMP)
	$(BIN)/python -m autograder.startup install
	touch $(STARTUP)

## book: build the student edition of the site into _build/html
book: setup
	$(BIN)/autograd-state book

## book-instructor: also build the instructor edition (solutions and hidden tests shown, collapsed)
book-instructor: setup
	$(BIN)/autograd-state book --edition instructor

## serve: build the book, then serve it on http://127.0.0.1:8000
serve: book
	@echo "Serving the book at http://127.0.0.1:8000 (Ctrl-C to stop)"
	$(BIN)/python -m http.server 8000 --bind 127.0.0.1 --directory _build/html

## test: the whole test suite (unit, property, nbval, nbgrader round trips, book build)
test: setup
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder --nbval --nbval-current-env --nbval-sanitize-with tests/nbval-sanitize.cfg \
		--durations=30 tests notebooks
	$(BIN)/ruff check .

lint: setup
	$(BIN)/ruff check .

## architecture: redraw ARCHITECTURE.md's picture from the packages' imports
architecture: setup
	$(BIN)/python -c "import re, pathlib; from tools.imports import mermaid; page = pathlib.Path('ARCHITECTURE.md'); \
	page.write_text(re.sub(r'\x60\x60\x60mermaid.*?\x60\x60\x60', lambda m: mermaid(), page.read_text(), flags=re.S))"

# Jupyter refuses to run as root unless told: the grader runs as root, so these say so when it does.
ALLOW_ROOT = $(if $(filter 0,$(shell id -u)),--allow-root)

release: setup
	$(BIN)/autograd-state release

## lab: JupyterLab on the student editions (releases only the chapters whose source changed)
lab: setup
	$(BIN)/autograd-state release --changed
	$(BIN)/jupyter lab --notebook-dir=release $(ALLOW_ROOT)

## formgrader: JupyterLab in the course folder, on this machine only, with nbgrader's formgrader
formgrader: setup
	$(BIN)/jupyter lab --ip=127.0.0.1 --no-browser $(ALLOW_ROOT) --ServerApp.root_dir=. \
		--LabApp.default_url=/formgrader

## normalize: re-execute the instructor notebooks and store them in the committed form
normalize: setup
	$(BIN)/autograd-state normalize

## bench: plain nbgrader against the sandboxed grader on a synthetic class (minutes; not part of test)
bench: setup
	$(BIN)/python bench/grading.py

clean:
	rm -rf _build release autograded feedback grades.csv reports

# citeproof: every target installs into .venv at the repo root first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT ?= out/demo
DEMO := examples/manubot

.PHONY: install demo test bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/citeproof check $(DEMO)/citing/meta-review.md --bib $(DEMO)/meta-review.bib --out $(OUT) --format md,json,html --cache-dir .cache/citeproof
	@echo "Open the report: $(OUT)/meta-review.citeproof.html (Markdown and JSON beside it)"

test: install
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python bench/bench.py

clean:
	rm -rf $(VENV) .cache out .pytest_cache

# citeproof: every target installs into .venv at the repo root first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT ?= out/demo
DEMO := examples/manubot

.PHONY: install demo test bench clean train-judge

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
	$(BIN)/python bench/online_bench.py

# --- the entailment judge (issue 3) ---------------------------------------------------------
# make train-judge retrains and exports the shipped model (about 95 min on 2 cores); it needs the
# training extra, which pulls torch 2.13.0 (a CPU build) and reads ../shared/data (training splits only).
PYTHON := $(BIN)/python
JUDGE_WORK ?= build/judge
JUDGE_MODEL := src/citeproof/judges/models/entailment-minilm-l6-int8.onnx

train-judge: install
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[train]'
	mkdir -p $(JUDGE_WORK)
	nice -n 19 $(PYTHON) training/train_judge.py general --out $(JUDGE_WORK)/general.pt --bs 32 --lr 5e-5 --max-len 128 --epochs 2 --max-minutes 60
	nice -n 19 $(PYTHON) training/crossval.py folds --work $(JUDGE_WORK) --init $(JUDGE_WORK)/general.pt --folds 3 --epochs 2 --lr 5e-5 --max-minutes 5
	nice -n 19 $(PYTHON) training/train_judge.py scifact --init $(JUDGE_WORK)/general.pt --out $(JUDGE_WORK)/final.pt --epochs 2 --lr 5e-5 --max-len 160 --max-minutes 7
	nice -n 19 $(PYTHON) training/train_judge.py export --init $(JUDGE_WORK)/final.pt --out $(JUDGE_MODEL)
	nice -n 19 $(PYTHON) training/crossval.py stack --work $(JUDGE_WORK) --names sf_fold0 sf_fold1 sf_fold2 --write-config
	nice -n 19 $(PYTHON) training/crossval.py ci --work $(JUDGE_WORK) --model $(JUDGE_MODEL) --write-config
	$(PYTHON) training/bench_judge.py $(JUDGE_MODEL) 300

clean:
	rm -rf $(VENV) .cache out .pytest_cache

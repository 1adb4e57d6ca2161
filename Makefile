# citeproof: every target installs into .venv at the repo root first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT ?= out/demo
DEMO := examples/manubot

.PHONY: train-meaning train-extra device-meaning-pack device-meaning-measure install demo test test-jitter bench bench-batch bench-compare clean train-judge lock fuzz

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# requirements.lock pins every package (runtime + test extras) to the versions CI passed with;
# pip takes it as constraints, so a fresh machine gets the same set. `make lock` refreshes it.
$(STAMP): pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install -q -c requirements.lock -e '.[test,batch]'
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/citeproof check $(DEMO)/citing/meta-review.md --bib $(DEMO)/meta-review.bib --out $(OUT) --format md,json,html --cache-dir .cache/citeproof
	@echo "Open the report: $(OUT)/meta-review.citeproof.html (Markdown and JSON beside it)"

test: install
	$(BIN)/python -m pytest -q

# The bad-input campaign, long run (issue 18): 10,000 generated inputs over the readers plus the hostile corpus
# (tests/hostile_inputs.py); prints inputs tried, crashes, hangs and citations lost against pandoc; exit 1 on a
# crash or hang. `make test` runs the short version (tests/test_fuzz.py). FUZZ_EXAMPLES=... to change the count.
# Then the web and online campaign (issue 31, tests/fuzz_web.py): FUZZ_WEB_REQUESTS hostile requests against
# `citeproof serve` on loopback with fake APIs logging every connection; prints requests, 5xx answers, connections
# off-promise and findings lost; exit 1 on any of them.
FUZZ_EXAMPLES ?= 10000
FUZZ_WEB_REQUESTS ?= 2000
fuzz: install
	$(BIN)/python tests/fuzz_campaign.py --examples $(FUZZ_EXAMPLES)
	$(BIN)/python tests/fuzz_web.py --requests $(FUZZ_WEB_REQUESTS)

# The model-dependent tests again with every model output perturbed (tests/conftest.py: --model-jitter):
# a test that fails here asserts a model output near a decision boundary, which flips across CPUs.
test-jitter: install
	$(BIN)/python -m pytest -q -m slow --model-jitter 0.2 --model-jitter-seed 2

# Re-resolve requirements.lock to the newest releases that fit pyproject.toml (uv, universal markers),
# then run `make test` before committing it. .github/workflows/lock-refresh.yml does this weekly.
lock: $(BIN)/python
	$(BIN)/python -m pip install -q uv
	$(BIN)/uv pip compile pyproject.toml --extra test --extra render --extra batch --universal --python-version 3.11 --upgrade -q -o requirements.lock

# The demo figures, the incremental re-runs (warm, one edit: fresh processes), then the scale job (bench/make_job.py: 50 PDFs, ~1,200 pages, 100 citations) through
# citeproof and a plain PyMuPDF + BM25 baseline. BENCH_ARGS=--scaling adds the scaling table; BENCH_ARGS=--batch adds
# `citeproof batch` (bench/batch_bench.py: 8 documents over the scale job's PDFs, 1 and 2 workers, cold, warm and
# resumed, and the projection to 8 workers of docs/scaling-out.md), which `make bench-batch` runs alone;
# BATCH_ARGS=--all-tiers runs it with every tier instead of the lexical tier.
bench: install
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/rerun.py
	$(BIN)/python bench/scale.py $(filter-out --batch,$(BENCH_ARGS))
	$(BIN)/python bench/online_bench.py
	$(if $(filter --batch,$(BENCH_ARGS)),$(BIN)/python bench/batch_bench.py $(BATCH_ARGS))

bench-batch: install
	$(BIN)/python bench/batch_bench.py $(BATCH_ARGS)

# Demo check timings of an older checkout against this one, interleaved (e.g. BEFORE=/tmp/before after
# `git worktree add /tmp/before <commit>`): the <=10% rule of issue 10.
bench-compare: install
	$(BIN)/python bench/compare.py $(BEFORE) . --rounds 3

# --- the entailment judge (issue 3) ---------------------------------------------------------
# make train-judge retrains and exports the shipped model (about 95 min on 2 cores); it needs the
# training extra, which pulls torch 2.13.0 (a CPU build) and reads ../shared/data (training splits only).
PYTHON := $(BIN)/python
JUDGE_WORK ?= build/judge
# Stage 1 resumes from $(JUDGE_WORK)/general.ckpt when it exists (training/resume.py): each run adds
# JUDGE_MINUTES of NLI epochs to the last. Copy that folder along to keep them on another machine.
JUDGE_MINUTES ?= 60
JUDGE_MODEL := src/citeproof/judges/models/entailment-minilm-l6-int8.onnx

train-judge: install
	$(BIN)/python -m pip install -q 'torch==2.13.0+cpu' || $(BIN)/python -m pip install -q 'torch==2.13.0'  # the CPU build where an index serves it
	$(BIN)/python -m pip install -q -e '.[train]'
	mkdir -p $(JUDGE_WORK)
	nice -n 19 $(PYTHON) training/train_judge.py general --out $(JUDGE_WORK)/general.pt --checkpoint $(JUDGE_WORK)/general.ckpt --bs 32 --lr 5e-5 --max-len 128 --epochs 2 --max-minutes $(JUDGE_MINUTES)
	nice -n 19 $(PYTHON) training/train_judge.py nli-eval --checkpoint $(JUDGE_WORK)/general.ckpt
	nice -n 19 $(PYTHON) training/crossval.py folds --work $(JUDGE_WORK) --init $(JUDGE_WORK)/general.pt --folds 3 --epochs 2 --lr 5e-5 --max-minutes 5
	nice -n 19 $(PYTHON) training/train_judge.py scifact --init $(JUDGE_WORK)/general.pt --out $(JUDGE_WORK)/final.pt --epochs 2 --lr 5e-5 --max-len 160 --max-minutes 7
	nice -n 19 $(PYTHON) training/train_judge.py export --init $(JUDGE_WORK)/final.pt --out $(JUDGE_MODEL)
	nice -n 19 $(PYTHON) training/crossval.py stack --work $(JUDGE_WORK) --names sf_fold0 sf_fold1 sf_fold2 --write-config
	nice -n 19 $(PYTHON) training/crossval.py ci --work $(JUDGE_WORK) --model $(JUDGE_MODEL) --write-config
	$(PYTHON) training/bench_judge.py $(JUDGE_MODEL) 300

# The meaning stage (issue 28): the shipped judge, de-quantized, fine-tuned on real citing sentences and term /
# scope swaps with a margin between each entailment and its one-word twin (training/meaning_data.py,
# training/contrast.py; ~30 min on 2 cores), exported with one int8 scale per channel, its decision layer fitted on
# SciFact claims kept apart; the candidate lands in $(JUDGE_WORK)/meaning/cand/src (nothing under src/ changes) and
# `eval meaning` measures it beside the shipped one (docs/meaning.md).
train-meaning: train-extra
	mkdir -p $(JUDGE_WORK)/meaning
	$(PYTHON) training/dequantize.py --out $(JUDGE_WORK)/shipped.pt
	$(PYTHON) training/meaning_data.py --out $(JUDGE_WORK)/meaning
	nice -n 19 $(PYTHON) training/contrast.py --pairs $(JUDGE_WORK)/meaning/pairs.jsonl --twins $(JUDGE_WORK)/meaning/twins.jsonl --init $(JUDGE_WORK)/shipped.pt --out $(JUDGE_WORK)/meaning/meaning.pt --steps 700 --lr 4e-5
	$(call measure_meaning,$(JUDGE_WORK)/meaning,$(JUDGE_WORK)/meaning/split.json)

# The same stage on a lent accelerator (training/device_meaning.py): `make device-meaning-pack` here (about 9 min),
# then the `run` tool with carry [".device-pack"] and command `bash scripts/device-meaning.sh`, then
# `make device-meaning-measure PARTS=<the folder its files came back to>` here.
device-meaning-pack: train-extra
	$(PYTHON) training/device_meaning.py pack --out .device-pack

device-meaning-measure: train-extra
	@test -n "$(PARTS)" || { echo "PARTS=<the folder the run tool's files came back to> is required"; exit 2; }
	$(PYTHON) training/device_meaning.py join $(PARTS) --out $(JUDGE_WORK)/device/meaning.pt
	$(call measure_meaning,$(JUDGE_WORK)/device,.device-pack/split.json)

train-extra: install
	$(BIN)/python -m pip install -q 'torch==2.13.0+cpu' || $(BIN)/python -m pip install -q 'torch==2.13.0'
	$(BIN)/python -m pip install -q -e '.[train]'

# $(1): a folder holding meaning.pt; $(2): the split.json of its pairs. Export (int8, a scale per channel), the
# decision layer on the calibration claims (a candidate package in $(1)/cand), then `eval meaning` of the candidate
# beside the shipped judge, and the networks' own one-word sensitivity.
define measure_meaning
	nice -n 19 $(PYTHON) training/train_judge.py export --per-channel --init $(1)/meaning.pt --out $(1)/meaning.onnx
	nice -n 19 $(PYTHON) training/meaning_fit.py calibrate --model $(1)/meaning.onnx --split $(2) --out $(1)/cand
	rm -f $(1)/cand/meaning-rows.jsonl $(JUDGE_WORK)/shipped-meaning-rows.jsonl
	PYTHONPATH=$(1)/cand/src $(PYTHON) -m citeproof eval meaning --data ../shared/data --rows $(1)/cand/meaning-rows.jsonl
	$(PYTHON) -m citeproof eval meaning --rows $(JUDGE_WORK)/shipped-meaning-rows.jsonl
	$(PYTHON) training/meaning_fit.py twins --rows $(JUDGE_WORK)/shipped-meaning-rows.jsonl --models $(JUDGE_MODEL) $(1)/meaning.onnx
endef

clean:
	rm -rf $(VENV) .cache out .pytest_cache

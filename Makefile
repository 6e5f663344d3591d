# Every target sets itself up: a fresh machine needs only python3 and make.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# Two installs into the one venv, each with its stamp: what serving needs (the package with
# the grpc extra: make run), and everything (every extra and the test tools: make test, lint,
# bench...), which holds the first, so it stamps both.
SERVE_STAMP := $(VENV)/.serve-stamp
STAMP       := $(VENV)/.installed-stamp
PORT        ?= 50051
EDGE_PORT   ?= 8080
# setuptools warns on every editable install that a folder named like the package could shadow
# it: not the case here (the folders are not import names, pyproject's package-dir maps them).
PIP         := PYTHONWARNINGS='ignore:Editable installation' $(PY) -m pip install --quiet

.PHONY: run edge test lint bench clean setup protos tables pools matches folds soak \
	calibration-references

$(PY):
	$(PYTHON) -m venv $(VENV)

$(SERVE_STAMP): pyproject.toml | $(PY)
	$(PIP) -e '.[grpc]'  # serving: no test tools, no Ray, no OR-Tools
	touch $(SERVE_STAMP)

$(STAMP): pyproject.toml | $(PY)
	$(PIP) -e '.[all,test]'  # every extra: test runs everything
	touch $(SERVE_STAMP) $(STAMP)

setup: $(STAMP)

# Serve the gRPC API on 127.0.0.1:$(PORT) (50051); the ready line shows client commands to try.
run: $(SERVE_STAMP)
	$(VENV)/bin/cpsolver serve --host 127.0.0.1 --port $(PORT)

# Envoy (deploy/envoy/envoy.yaml, rendered for loopback) on 127.0.0.1:$(EDGE_PORT) (8080) in
# front of two servers of its own on free ports: gRPC, gRPC-Web and HTTP/JSON on that one port
# (docs/DEPLOY.md, "The edge"); Ctrl-C stops it all.
edge: $(STAMP)
	$(PY) deploy/envoy/local.py --serve 2 --port $(EDGE_PORT)

# Two pytest processes, each file's tests together in one (its module fixtures, e.g. a server,
# start once): 9-10 minutes on 2 cores instead of 15-16 in one process. TEST_WORKERS=0 runs
# them in this process.
TEST_WORKERS ?= 2
test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check solver
	$(PY) .ci/typecheck.py  # mypy --strict over the cpsolver namespace (solver/, client/, server/)
	$(PY) protos/generate.py --descriptor-set $(VENV)/protos.binpb
	$(VENV)/bin/buf lint $(VENV)/protos.binpb --path cpsolver --config buf.yaml

# Regenerate protos/cpsolver/v1/*_pb2*.py (installed as cpsolver.v1) from protos/ with the installed grpcio-tools (commit them;
# tests/test_protos.py fails when they are stale).
protos: $(STAMP)
	$(PY) protos/generate.py

# Benchmark modules run by `make bench`, in order (each prints its figures; docs/BENCHMARKS.md
# records them with the command). Add yours to the list.
BENCHMARKS ?= bench.solve bench.rule_sets bench.engines bench.grpc_load bench.startup bench.cold_start bench.review

bench: $(STAMP)
	@set -e; for module in $(BENCHMARKS); do echo "== $$module"; $(PY) -m $$module; done

# Reliability soak (issue 15, ~15 minutes on 2 cores): 100,000 hostile requests, 3 minutes at
# 80% of measured capacity, 5x overload, kill -9 of a worker, SIGTERM with calls in flight,
# against a real server on loopback (docs/BENCHMARKS.md records the figures).
soak: $(STAMP)
	$(PY) -m bench.soak

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

# The expected-value tables shipped in solver/data: every table key (docs/EV.md), each warm-started
# from the nearest trained key; the commands and parameters are in solver/chinese/make_tables.py
# (`$(PY) -m cpsolver.chinese.make_tables --dry-run` prints them). About 2-2.5 hours on 2 cores
# (docs/EV.md: measured key by key); TABLES_ARGS=--ray=auto trains on a Ray cluster instead.
TABLES_ARGS ?=
tables: $(STAMP)
	$(PY) -m cpsolver.chinese.make_tables --out solver/data $(TABLES_ARGS)

# The opponent pools of `solve(cards, calibrated=True)` (issue 14, docs/EV.md "Card removal"):
# 100,000 seeded hands arranged once by each key's shipped policy; about 4 minutes per key on
# one core. Run after `make tables` (a pool must be its key's tables' own: tests/test_pool.py).
pools: $(STAMP)
	$(PY) -m cpsolver.chinese.pool --out solver/data

# Duplicate matches of the ev objective against baselines (the presets, then heads-up standard,
# scoop_double and royalty_mode=add: issue 13), then its calibration against 20,000-rollout
# simulations, with the rollout mode and the calibrated mode measured against the same
# simulations (issue 14; about two hours on 2 cores; docs/BENCHMARKS.md), then the regret of the
# calibrated and model choices against a best response among the top 20 by rollouts (issue 32;
# about 35 minutes on one core).
matches: $(STAMP)
	$(PY) -m bench.matches
	$(PY) -m bench.matches --rules standard --set players=2 --rivals strength percentile
	$(PY) -m bench.matches --rules standard --set scoring=scoop_double --rivals strength percentile
	$(PY) -m bench.matches --rules standard --set royalty_mode=add --rivals strength percentile
	mkdir -p build && rm -f build/calibration-standard.jsonl build/calibration-two_four.jsonl
	$(PY) -m bench.calibration --hands 200 --rollouts 20000 --budget-rollouts 3000 --rules standard --out build/calibration-standard.jsonl
	$(PY) -m bench.calibration --hands 200 --rollouts 20000 --budget-rollouts 2000 --rules two_four --out build/calibration-two_four.jsonl
	$(PY) -m bench.calibration --rescore build/calibration-standard.jsonl
	$(PY) -m bench.calibration --rescore build/calibration-two_four.jsonl
	$(PY) -m bench.regret --hands 300 --rollouts 4000 --seed 1 --rules standard two_four

# The 20,000-rollout references the calibration test reads (tests/test_calibration_references.py;
# about an hour of both cores): each preset's 200 seeded hands, the table model's top 10 each.
calibration-references: $(STAMP)
	rm -f bench/data/calibration-standard.jsonl bench/data/calibration-two_four.jsonl
	$(PY) -m bench.calibration --hands 200 --rollouts 20000 --top 10 --seed 1 --rules standard --out bench/data/calibration-standard.jsonl
	$(PY) -m bench.calibration --hands 200 --rollouts 20000 --top 10 --seed 1 --rules two_four --out bench/data/calibration-two_four.jsonl

# The fold proofs of the table keys (issue 13, docs/EV.md "Table keys"): a dedicated model for
# two rule sets of each folded option (players, order, wheel, naturals), trained with make
# tables' parameters into build/folds (not shipped; reused when present), then a 10,000-deal
# duplicate match against the shipped model. About 1-1.5 hours on 2 cores. Then the same match for
# the royalties=none x two_four file shipped until 2026-12-02, trained with naturals off (the
# `two_four` preset's own rule set) against the file shipped since (naturals on).
folds: $(STAMP)
	$(PY) -m bench.folds --out build/folds
	git show d81bbf7:solver/data/chinese-ev-c08627ad27bcf14f.npz > build/folds/two_four-naturals-off.npz
	$(PY) -m bench.folds --file build/folds/two_four-naturals-off.npz

"""The Ray half of tests/test_cluster.py, run by it in a fresh interpreter (not collected).

    python tests/ray_driver.py OUT < SPEC.json

Starts a private local Ray (``cpsolver.cluster.connect("local", num_cpus=2)``), runs on it
what SPEC asks (training with 1 and 2 workers, a batch, ``cpsolver batch --ray auto``,
``cluster.solve_many``, a review: ``RaySolver.review``, ``cluster.review``,
``cpsolver review - --ray auto``), writes the trained tables to ``OUT/*.npz`` and prints one
JSON object on its last stdout line; the test compares all of it with the same work done in its own
process without Ray. Why a fresh interpreter: ``ray.init`` inside the test process depends on
what the earlier tests of a full run left there (it timed out twice waiting for its GCS server
in full runs, never alone), and a Ray started here is shut down, with its processes, when
this script ends.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
from click.testing import CliRunner

from cpsolver.chinese.training import train
from cpsolver.client.cli import main as cli
from cpsolver.cluster import RaySolver, connect, ray_map, ray_mapper, review, solve_many
from cpsolver.errors import CpsolverError
from cpsolver.rules.chinese import ChineseRules

ARRAYS = ("rows", "naturals", "previous_rows", "previous_naturals")
"""The arrays of a trained model the test compares bit for bit."""


def _where(_: tuple[Any, ...]) -> tuple[int, str | None]:
    """A chunk task reporting the process it ran in and its numba thread count."""
    return os.getpid(), os.environ.get("NUMBA_NUM_THREADS")


def _plain(result: Any) -> Any:
    """A batch result as JSON: a Solution's dict, an error's text."""
    return str(result) if isinstance(result, Exception) else result.to_dict()


def run(spec: dict[str, Any], out: Path) -> dict[str, Any]:
    """Everything SPEC asks, on the local Ray; the JSON report (module doc)."""
    ray = connect("local", num_cpus=2)
    report: dict[str, Any] = {"driver": os.getpid(), "cpus": ray.cluster_resources().get("CPU")}
    report["chunks"] = list(ray_map(_where, [(i,) for i in range(6)], workers=2))

    rules = ChineseRules(**spec["train"]["rules"])
    kwargs = {k: v for k, v in spec["train"].items() if k != "rules"}
    report["training"] = {}
    for name, workers, seed in spec["trainings"]:
        model = train(rules, chunk_map=ray_mapper(workers), **{**kwargs, "seed": seed})
        np.savez(out / f"{name}.npz", **{a: getattr(model, a) for a in ARRAYS})
        report["training"][name] = {k: model.meta[k] for k in ("gains", "final_gain")}

    hands = spec["hands"]
    report["batch"] = {
        rules_name: [_plain(r) for r in RaySolver("auto", chunk=2, in_flight=2).solve_batch(
            hands, rules_name
        )]
        for rules_name in spec["batch_rules"]
    }  # fmt: skip
    report["batch_budget"] = [
        _plain(r)
        for r in RaySolver("auto", chunk=2, in_flight=2).solve_batch(
            hands, estimator="budget:50ms", arrangements=2
        )
    ]
    env = {"NO_COLOR": None, "CPSOLVER_SERVER": None}  # as tests/helpers.py's run_cli
    run_ = CliRunner(env=env).invoke(cli, ["batch", "-", "--ray", "auto"], input=spec["stdin"])
    if run_.exception is not None and not isinstance(run_.exception, SystemExit):
        raise run_.exception
    report["cli"] = [run_.exit_code, run_.stdout, run_.stderr]

    if "review" in spec:  # a history reviewed in chunks of 7 hands, two tasks at a time
        history = spec["review"]["history"]
        report["review"] = RaySolver("auto", in_flight=2).review(history, chunk=7).to_dict()
        report["review_calibrated"] = review(
            history[:6], estimator="calibrated", address="auto"
        ).to_dict()
        run_ = CliRunner(env=env).invoke(
            cli, ["review", "-", "--json", "--ray", "auto"], input=spec["review"]["stdin"]
        )
        if run_.exception is not None and not isinstance(run_.exception, SystemExit):
            raise run_.exception
        report["review_cli"] = [run_.exit_code, run_.stdout, run_.stderr]
    report["solve_many"] = [s.to_dict() for s in solve_many(spec["good"], address="auto")]
    try:
        solve_many(spec["bad"], address="auto")
    except CpsolverError as exc:
        report["solve_many_error"] = [type(exc).__name__, list(getattr(exc, "path", ())), str(exc)]
    ray.shutdown()
    return report


if __name__ == "__main__":
    print(json.dumps(run(json.load(sys.stdin), Path(sys.argv[1]))))

"""``cpsolver rate --json`` and ``cpsolver review --json`` against their JSON Schemas
(docs/schemas/rate.schema.json, review.schema.json; docs/CLI-JSON.md): real output of rows,
fouls, declared naturals, each estimator, bad lines, in-process and against a real server;
and the schemas reject what the documents must not hold (the check can fail).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import run_cli
from test_cli_client import validator
from test_review import history

DRAGON = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"
RATED = [
    ["As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d 3s"],  # solve's own rows
    ["9h 9d 9c 2h 2d", "As Ks Qs Js Ts", "7c 5d 3s"],  # fouled
    ["Ah Kd 9s 9c 2s", "7h 7d 5c 4s Jc", "3h 3d Td"],  # front too strong
    ["--natural", DRAGON],
    ["As Kh Qd Jc Ts", "9h 8d 7c 6s 5h", "4d 3c 2s"],  # a dragon played as rows
]
ESTIMATORS = [
    ["--estimator", "model"],
    ["--estimator", "calibrated"],
    ["--estimator", "rollouts:40", "--seed", "3"],
]


def _rate(args: list[str], *extra: str) -> dict[str, Any]:
    code, out, err = run_cli(["rate", *args, "--json", *extra])
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=["model", "calibrated", "rollouts"])
def test_rate_output_matches_its_schema(estimator: list[str]) -> None:
    check = validator("rate")
    docs = [_rate(args, *estimator) for args in RATED]
    for doc in docs:
        check.validate(doc)
    fouled, natural, missed = docs[1], docs[3], docs[4]
    assert fouled["played"]["fouled"] and fouled["rank"] is None
    assert natural["played"]["rows"] is None and natural["played"]["natural"]["name"] == "dragon"
    assert "missed_natural" in missed["mistakes"]
    finer = estimator[1] != "model"
    assert all((d["ev_lost_ci95"] is not None) == finer for d in docs)


def test_rate_output_from_a_server_matches_its_schema(server: str) -> None:
    check = validator("rate")
    for args in RATED:
        check.validate(_rate(args, "--server", server))


def _review(path: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run_cli(["review", str(path), "--json", *extra])
    assert code in (0, 2), err
    doc: dict[str, Any] = json.loads(out)
    return code, doc


@pytest.fixture(scope="module")
def history_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 hands by four players (fouls, naturals declared and missed, other rules) and two
    bad lines."""
    path = tmp_path_factory.mktemp("review") / "h.jsonl"
    lines = [json.dumps(h) for h in history(40, 12)]
    lines[7] = "{not json"
    lines[9] = json.dumps({"back": "As Ks", "middle": "9h 9d 9c 2h 2d", "front": "7c 5d 3s"})
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("estimator", ESTIMATORS[:2], ids=["model", "calibrated"])
def test_review_output_matches_its_schema(history_file: Path, estimator: list[str]) -> None:
    code, doc = _review(history_file, *estimator)
    validator("review").validate(doc)
    assert code == 2 and [e["line"] for e in doc["errors"]] == [8, 10]
    assert len(doc["hands"]) == 38 and doc["overall"]["worst"]
    bests = [h["best"] for h in doc["hands"]]
    assert any("natural" in b for b in bests) and any("back" in b for b in bests)


def test_review_output_from_a_server_matches_its_schema(history_file: Path, server: str) -> None:
    code, doc = _review(history_file, "--server", server)
    validator("review").validate(doc)
    assert code == 2 and len(doc["hands"]) == 38


def test_the_schemas_reject_what_the_output_must_not_hold(history_file: Path) -> None:
    """Each broken copy of a real document fails validation: the checks above can fail."""
    rate_doc = _rate(RATED[2])
    _, review_doc = _review(history_file)
    broken: list[tuple[str, dict[str, Any]]] = []
    for key, value in (("ev_lost", None), ("mistakes", ["bad_luck"]), ("rank", 0)):
        doc = copy.deepcopy(rate_doc)
        doc[key] = value
        broken.append(("rate", doc))
    doc = copy.deepcopy(rate_doc)
    del doc["best"]["rows"]["front"]
    broken.append(("rate", doc))
    doc = copy.deepcopy(review_doc)
    doc["hands"][0]["best"] = {"back": doc["hands"][0]["best"].get("back", ["As"] * 5)}
    broken.append(("review", doc))
    doc = copy.deepcopy(review_doc)
    doc["overall"]["player"] = "ann"
    broken.append(("review", doc))
    doc = copy.deepcopy(review_doc)
    doc["players"][0]["mistakes"] = {"bad_luck": {"hands": 1, "ev_lost": 1.0}}
    broken.append(("review", doc))
    doc = copy.deepcopy(review_doc)
    del doc["players"][0]["worst"][0]["best"]
    broken.append(("review", doc))
    for name, doc in broken:
        with pytest.raises(jsonschema.ValidationError):
            validator(name).validate(doc)

"""``cpsolver review`` and ``cpsolver.chinese.review`` (issue 29): a history rated hand by hand.

The summary is checked against a slow loop of ``cpsolver.rate`` calls, one per hand, summed up
here by hand (the issue's check, on 200 hands); the CLI reads JSON lines and CSV alike and
gives the in-process numbers against a real server too.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
from pathlib import Path

import jsonschema
import pytest
from helpers import run_cli

from cpsolver import rate, solve
from cpsolver.cards import Card
from cpsolver.chinese.rate import Rating
from cpsolver.chinese.review import review
from cpsolver.errors import InvalidInputError
from cpsolver.rules import ChineseRules, Row

DECK = [str(Card.from_index(i)) for i in range(52)]
DRAGON = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"
SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "schemas" / "hand-history.schema.json"


def history(n: int, seed: int) -> list[dict[str, object]]:
    """Random rows (some fouled), solve's own rows and a few declared or missed naturals,
    by four players; a few under other rules."""
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    for i in range(n):
        cards = rng.sample(DECK, 13)
        hand: dict[str, object] = {"id": i, "player": f"p{i % 4}"}
        if i % 9 == 0:
            best = solve(" ".join(cards))
            hand.update(back=[str(c) for c in best.back], middle=[str(c) for c in best.middle],
                        front=[str(c) for c in best.front])  # fmt: skip
        elif i % 31 == 0:
            hand.update(cards=DRAGON, natural=True)
        elif i % 37 == 0:
            d = DRAGON.split()
            hand.update(back=" ".join(d[:5]), middle=" ".join(d[5:10]), front=" ".join(d[10:]))
        else:
            hand.update(back=" ".join(cards[:5]), middle=" ".join(cards[5:10]),
                        front=" ".join(cards[10:]))  # fmt: skip
        if i % 11 == 5:
            hand["rules"] = "standard scoring=two_four"
        out.append(hand)
    return out


def _rules(hand: dict[str, object]) -> ChineseRules:
    return (
        ChineseRules.resolve("standard", scoring="two_four") if "rules" in hand else ChineseRules()
    )


def _played(hand: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in hand.items() if k not in ("id", "player", "rules")}


def _best_rows(rating: Rating) -> tuple[tuple[Card, ...], ...] | None:
    """The best arrangement's rows of a rating, back, middle, front (None: it declares)."""
    if rating.best.natural is not None:
        return None
    by_row = {r.row: r.cards for r in rating.best_rows}
    return (by_row[Row.BACK], by_row[Row.MIDDLE], by_row[Row.FRONT])


def test_summary_equals_a_slow_loop_of_rate_calls() -> None:
    hands = history(200, 29)
    result = review(hands)
    assert result.errors == () and len(result.hands) == 200
    # A review's default is the table model (REVIEW_ESTIMATOR), a single rating's calibrated.
    slow = [rate(_played(h), _rules(h), estimator="model") for h in hands]
    for mine, ref in zip(result.hands, slow, strict=True):
        assert mine.ev == pytest.approx(ref.ev, abs=1e-9)
        assert mine.ev_lost == pytest.approx(ref.ev_lost, abs=1e-9)
        assert mine.mistakes == ref.mistakes and mine.fouled == ref.fouled
        assert mine.best_rows == _best_rows(ref)  # rate's best arrangement, card for card
    assert sum(1 for h in result.hands if h.best_rows is None) == sum(
        1 for r in slow if r.best.natural is not None
    ) > 0
    for summary in (*result.players, result.overall):
        mine_idx = [i for i, h in enumerate(hands) if summary.player in ("*", h["player"])]
        losses = [slow[i].ev_lost for i in mine_idx]
        n = len(losses)
        assert summary.hands == n
        assert summary.total_lost == pytest.approx(math.fsum(losses), abs=1e-8)
        mean = math.fsum(losses) / n
        assert summary.mean_lost == pytest.approx(mean, abs=1e-9)
        sd = math.sqrt(sum((x - mean) ** 2 for x in losses) / (n - 1))
        assert summary.mean_lost_ci95 is not None
        assert summary.mean_lost_ci95[1] - mean == pytest.approx(1.96 * sd / math.sqrt(n))
        assert summary.played_best == sum(1 for i in mine_idx if slow[i].played_best)
        assert summary.fouls == sum(1 for i in mine_idx if slow[i].fouled)
        by_kind: dict[str, list[float]] = {}
        for i in mine_idx:
            for kind in slow[i].mistakes:
                by_kind.setdefault(kind, []).append(slow[i].ev_lost)
        assert {k: t.hands for k, t in summary.mistakes.items()} == {
            k: len(v) for k, v in by_kind.items()
        }
        for kind, tally in summary.mistakes.items():
            assert tally.ev_lost == pytest.approx(math.fsum(by_kind[kind]), abs=1e-8)
        worst = sorted(mine_idx, key=lambda i: (-slow[i].ev_lost, i))[: len(summary.worst)]
        assert [h.index for h in summary.worst] == worst
    assert result.overall.fouls > 0 and result.overall.played_best >= 200 // 9
    assert {"foul", "missed_natural"} <= set(result.overall.mistakes)


def test_a_finer_estimator_rates_hand_by_hand_as_rate_does() -> None:
    hands = history(8, 3)
    result = review(hands, estimator="calibrated")
    for mine, hand in zip(result.hands, hands, strict=True):
        ref = rate(_played(hand), _rules(hand), estimator="calibrated")
        assert (mine.ev, mine.ev_lost, mine.mistakes) == (ref.ev, ref.ev_lost, ref.mistakes)
        assert mine.best_rows == _best_rows(ref)
    assert str(result.estimator) == "calibrated"


def test_bad_hands_are_reported_in_place() -> None:
    hands: list[object] = [
        {"back": "As Ks Qs Js Ts", "middle": "9h 9d 9c 2h 2d", "front": "7c 5d 3s"},
        {"back": "As Ks Qs Js", "middle": "9h 9d 9c 2h 2d", "front": "7c 5d 3s", "id": "x"},
        {"back": "As Ks Qs Js Ts", "middle": "9h 9d 9c 2h 2d", "front": "7c 5d 3s", "seat": 1},
        {"back": "As Ks Qs Js Ts", "middle": "9h 9d 9c 2h 2d", "front": "7c 5d 3s",
         "rules": "standard order=sideways"},
    ]  # fmt: skip
    result = review(hands, lines=[1, 2, 3, 4])
    assert [h.index for h in result.hands] == [0]
    assert [(e.index, e.line) for e in result.errors] == [(1, 2), (2, 3), (3, 4)]
    assert result.errors[0].id == "x" and "back" in str(result.errors[0].error)
    assert "seat" in str(result.errors[1].error) and "rules" in str(result.errors[2].error)


def _write_jsonl(path: Path, hands: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(h) + "\n" for h in hands))


def _write_csv(path: Path, hands: list[dict[str, object]]) -> None:
    out = io.StringIO()
    fields = ["id", "player", "rules", "back", "middle", "front", "cards", "natural"]
    writer = csv.DictWriter(out, fieldnames=fields)
    writer.writeheader()
    for h in hands:
        row = {k: (" ".join(v) if isinstance(v, list) else v) for k, v in h.items()}
        if row.get("natural") is True:
            row["natural"] = "true"
        writer.writerow(row)
    path.write_text(out.getvalue())


def _numbers(doc: dict[str, object]) -> list[tuple[object, ...]]:
    hands = doc["hands"]
    assert isinstance(hands, list)
    return [(h["player"], h["ev"], h["ev_lost"], tuple(h["mistakes"]), h["best"]) for h in hands]


def test_cli_reads_json_lines_and_csv_alike(tmp_path: Path) -> None:
    hands = history(40, 5)
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    for hand in hands:
        validator.validate(hand)
    _write_jsonl(tmp_path / "h.jsonl", hands)
    _write_csv(
        tmp_path / "h.csv", [{k: str(v) if k == "id" else v for k, v in h.items()} for h in hands]
    )
    code, out, err = run_cli(["review", str(tmp_path / "h.jsonl"), "--json"])
    assert code == 0, err
    from_jsonl = json.loads(out)
    code, out, err = run_cli(["review", str(tmp_path / "h.csv"), "--json"])
    assert code == 0, err
    from_csv = json.loads(out)
    assert _numbers(from_csv) == _numbers(from_jsonl)
    assert from_csv["overall"]["total_ev_lost"] == from_jsonl["overall"]["total_ev_lost"]
    local = review(hands)
    assert from_jsonl["overall"]["total_ev_lost"] == local.overall.total_lost
    assert [h["line"] for h in from_jsonl["hands"]] == list(range(1, 41))
    assert [h["line"] for h in from_csv["hands"]] == list(range(2, 42))  # under the header
    code, out, err = run_cli(["review", str(tmp_path / "h.jsonl")])
    assert code == 0 and "EV lost by player" in out and "p3" in out and "worst hands" in out


def test_cli_bad_lines_exit_2_with_their_numbers(tmp_path: Path) -> None:
    good = json.dumps({"back": "As Ks Qs Js Ts", "middle": "9h 9d 9c 2h 2d", "front": "7c 5d 3s"})
    (tmp_path / "h.jsonl").write_text(f"# a comment\n{good}\n{{not json\n\n{good}\n")
    code, out, err = run_cli(["review", str(tmp_path / "h.jsonl"), "--json"])
    assert code == 2
    doc = json.loads(out)
    assert [h["line"] for h in doc["hands"]] == [2, 5]
    assert (
        doc["errors"][0]["line"] == 3 and "not valid JSON at line 3" in doc["errors"][0]["message"]
    )
    assert "1 bad line (3)" in err


def test_cli_against_a_server_gives_the_same_numbers(tmp_path: Path, server: str) -> None:
    hands = history(24, 8)
    _write_jsonl(tmp_path / "h.jsonl", hands)
    code, out, err = run_cli(["review", str(tmp_path / "h.jsonl"), "--json"])
    assert code == 0, err
    local = json.loads(out)
    code, out, err = run_cli(["review", str(tmp_path / "h.jsonl"), "--json", "--server", server])
    assert code == 0, err
    remote = json.loads(out)
    assert _numbers(remote) == _numbers(local)
    assert remote["overall"]["mistakes"] == local["overall"]["mistakes"]


def test_worst_hands_show_the_best_arrangement_beside_the_played_one() -> None:
    """A fouled royal flush: the table's worst-hands line and the JSON show the rows played
    and the best ones (royal flush back, nines full middle: worked out by hand)."""
    played = {"player": "bob", "back": "9h 9d 9c 2h 2d", "middle": "As Ks Qs Js Ts",
              "front": "7c 5d 3s"}  # fmt: skip
    code, out, err = run_cli(["review", "-"], stdin=json.dumps(played) + "\n",
                             env={"NO_COLOR": "1", "COLUMNS": "200"})  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("bob ") and " / " in x)
    assert lines[at].endswith("played 9♥ 9♦ 9♣ 2♥ 2♦ / A♠ K♠ Q♠ J♠ T♠ / 7♣ 5♦ 3♠")
    assert lines[at + 1].strip() == "best   A♠ K♠ Q♠ J♠ T♠ / 9♣ 9♦ 9♥ 2♦ 2♥ / 7♣ 5♦ 3♠"
    assert lines[at + 2].strip() == "foul"
    code, out, err = run_cli(["review", "-", "--json"], stdin=json.dumps(played) + "\n")
    worst = json.loads(out)["players"][0]["worst"][0]
    assert {row: set(cards) for row, cards in worst["best"].items()} == {
        "back": {"As", "Ks", "Qs", "Js", "Ts"}, "middle": {"9h", "9d", "9c", "2h", "2d"},
        "front": {"7c", "5d", "3s"},
    }  # fmt: skip
    dragon = {"back": "As Kh Qd Jc Ts", "middle": "9h 8d 7c 6s 5h", "front": "4d 3c 2s"}
    code, out, err = run_cli(["review", "-", "--json"], stdin=json.dumps(dragon) + "\n")
    assert json.loads(out)["hands"][0]["best"] == {"natural": "dragon"}


@pytest.mark.parametrize(
    ("estimator", "seed"), [("calibrated", 0), ("rollouts:40", 5)], ids=["calibrated", "rollouts"]
)
def test_finer_estimators_on_the_cli_here_and_on_a_server(
    tmp_path: Path, server: str, estimator: str, seed: int
) -> None:
    """Each hand as ``rate`` rates it with that estimator and seed (the slow loop), and the
    CLI gives those numbers in-process and through a server's RateArrangement."""
    hands = history(10, 21)
    result = review(hands, estimator=estimator, seed=seed, lines=range(1, 11))
    assert str(result.estimator) == estimator and result.errors == ()
    for mine, hand in zip(result.hands, hands, strict=True):
        ref = rate(_played(hand), _rules(hand), estimator=estimator, seed=seed)
        assert (mine.ev, mine.ev_lost, mine.mistakes) == (ref.ev, ref.ev_lost, ref.mistakes)
        assert mine.best_rows == _best_rows(ref)
    _write_jsonl(tmp_path / "h.jsonl", hands)
    args = ["review", str(tmp_path / "h.jsonl"), "--json", "--estimator", estimator,
            "--seed", str(seed)]  # fmt: skip
    code, out, err = run_cli(args)
    assert code == 0, err
    local = json.loads(out)
    assert local == json.loads(json.dumps(result.to_dict())) and local["estimator"] == estimator
    code, out, err = run_cli([*args, "--server", server])
    assert code == 0, err
    remote = json.loads(out)
    assert _numbers(remote) == _numbers(local)
    assert remote["overall"] == local["overall"] and remote["players"] == local["players"]


def test_a_bad_rules_value_is_named_once_on_every_surface(tmp_path: Path, server: str) -> None:
    """A hand's bad ``rules`` was reported at rules.rules.preset: the library's error, already
    at rules.preset, was placed under the hand's rules field once more."""
    cards = "As Kh Qd Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
    hands = [
        {"cards": cards, "rules": "nope"},
        {"cards": cards, "rules": {"preset": "standard", "players": 9, "order": "zz"}},
        {"cards": cards, "rules": "standard scoring"},  # a word that is no OPTION=VALUE
    ]
    expected = [
        ["rules.preset"],
        ["rules.players", "rules.order"],
        ["rules"],
    ]
    result = review(hands)
    assert result.errors[0].error.violations[0].path == ("rules", "preset")
    assert [[v.field for v in e.error.violations] for e in result.errors] == expected
    _write_jsonl(tmp_path / "h.jsonl", hands)
    for remote in ([], ["--server", server]):
        code, out, err = run_cli(["review", str(tmp_path / "h.jsonl"), "--json", *remote])
        assert code == 2, err
        errors = json.loads(out)["errors"]
        assert [[v["field"] for v in e["violations"]] for e in errors] == expected, remote
        assert errors[0]["message"].startswith("rules.preset: unknown preset 'nope'")


@pytest.mark.parametrize(
    ("given", "options", "message"),
    [
        (None, {}, "history: expected a list of hands, got None"),
        (5, {}, "history: expected a list of hands, got int"),
        ("As Ks Qs", {}, "history: expected a list of hands, got str"),
        ([], {"threads": "x"}, "threads: expected a whole number, got 'x'"),
        ([], {"progress": "x"}, "progress: expected a function of the hands done, got str"),
    ],
)
def test_reviews_plain_arguments_are_named(given: object, options: dict, message: str) -> None:
    """None or a number as the history, text as threads or progress: a bare TypeError from
    inside the loop, the kernel or the first hand rated."""
    with pytest.raises(InvalidInputError) as caught:
        review(given, **options)  # type: ignore[arg-type]
    assert str(caught.value) == message

"""The ``--json`` output of every Chlust and Three Leaves command against its JSON Schema
(issue 5: "``--json`` with a stable, documented schema"; ``docs/schemas/chlust-*.schema.json``,
``leaves-*.schema.json``, shared definitions in ``games-common.schema.json``, documented in
``docs/CLI-JSON.md``).

Each case runs a command on a RULES.md worked example (CH-E*, TL-E*) or an input in the
documented file formats, in-process and with ``--server`` against the suite's real server
(``grpc_server``): the output is strict JSON (no ``NaN``/``Infinity``), valid against the schema,
the same both ways, and shows a fact of the rules (so a case can fail on content too). Negative
checks prove each game's schemas reject wrong shapes. Click's in-process runner keeps it fast.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import run_cli
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cpsolver.cards import Suit, parse_cards
from cpsolver.chlust import advise_play, showdown_odds
from cpsolver.errors import InvalidInputError
from cpsolver.tricks import Trick

DOCS = Path(__file__).resolve().parent.parent / "docs"
SCHEMAS = DOCS / "schemas"


@cache
def validator(name: str) -> Any:
    """A validator of docs/schemas/NAME.schema.json, ``$ref``s resolved across the folder."""
    from referencing import Registry, Resource

    schemas = {p.name: json.loads(p.read_text()) for p in SCHEMAS.glob("*.schema.json")}
    registry: Registry[Any] = Registry().with_resources(
        [(s["$id"], Resource.from_contents(s)) for s in schemas.values()]
    )
    schema = schemas[f"{name}.schema.json"]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, registry=registry)


def _no_constants(name: str) -> object:
    raise AssertionError(f"not valid JSON: {name} in the output")


def run_json(args: list[str], stdin: str | None = None) -> Any:
    """Run a command with --json: exit 0 and one strict JSON document on one line."""
    code, out, err = run_cli([*args, "--json"], stdin)
    assert code == 0, err
    assert out.endswith("\n") and out.count("\n") == 1, out
    return json.loads(out, parse_constant=_no_constants)


@dataclass(frozen=True)
class Case:
    schema: str
    args: tuple[str, ...]
    stdin: Any = None  # a JSON value sent on stdin
    check: Callable[[Any], bool] = field(default=lambda data: True)
    id: str = ""


def _shares_add_up(data: Any) -> bool:
    """CH-9: the seats' shares and the carried fraction make the whole pot."""
    total = sum(Fraction(f) for f in data["shares"].values()) + Fraction(data["carried"])
    return total == 1


def _money_is_conserved(deal: Any) -> bool:
    """TL-6 bookkeeping: sum(net) + pot_after - carried_in == 0 (docs/CLI-JSON.md)."""
    return bool(sum(deal["net"]) + deal["pot_after"] - deal["carried_in"] == 0)


def _estimates(data: Any) -> list[dict[str, Any]]:
    """Every estimate object ``{value, low, high, exact}`` in a JSON document."""
    if isinstance(data, dict):
        if set(data) == {"value", "low", "high", "exact"}:
            return [data]
        return [e for v in data.values() for e in _estimates(v)]
    if isinstance(data, list):
        return [e for v in data for e in _estimates(v)]
    return []


def _estimates_hold(data: Any, *, exact: bool) -> bool:
    """At least one estimate, each with low <= value <= high, a point exactly when exact."""
    found = _estimates(data)
    return bool(found) and all(
        e["low"] <= e["value"] <= e["high"]
        and e["exact"] is exact
        and (e["low"] == e["high"]) >= exact
        for e in found
    )


CH_E11 = {  # 3 players, trumps ♠ (Q♠ turned): L (seat 1) takes two tricks and the pot
    "hands": ["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"],
    "trump": "s",
    "turned": "Qs",
    "dealer": 0,
    "plays": ["Ah Kh Qh", "Kc Js Tc", "Ad Jd Td"],
}
POSITION = {  # two players, one trick played: few enough deals to enumerate
    "hand": "Qd Qh",
    "trump": "s",
    "seat": 0,
    "seats": [0, 1],
    "history": [{"leader": 0, "cards": "Kd Ac"}],
    "trick": {"leader": 0, "cards": ""},
    "turned": "Js",
}
MID_TRICK = {  # four players, seat 2 answers Q♥ A♥: sampled
    "hand": "Ad Kh Ts",
    "trump": "s",
    "seat": 2,
    "seats": [0, 1, 2, 3],
    "trick": {"leader": 0, "cards": "Qh Ah"},
}
TL_E6 = {
    "hands": ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"],
    "trump_card": "9d",
    "plays": "As Ks Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Jc",
}
TL_E1 = {  # seat 1 (B) holds A♠K♠8♠ under spades; the others pick A♠, K♠, 8♠
    "hands": ["9h Jc Qd", "As Ks 8s", "Th Jd 9c", "Qh Kc 8d"],
    "trump_card": "Js",
    "picks": ["As", "Ks", "8s"],
}
TL_E7 = {"hands": ["Ah Kh 8h", "Qh Jh 9d", "Th Ks 8c", "9h Kd Ac"], "trump_card": "Qs"}
PLAYOUT = dict(TL_E7, demand_playout=True, plays="Ah Qh Th 9h Kh Jh Ks ~Kd 8c Ac ~8h ~9d")
EXCHANGE = dict(  # seat 1 draws two (TL-3), seat 2 passes; seat 0 takes every trick
    TL_E6,
    stock="Js 9s Tc",
    exchanges={"1": "9h Jc", "2": "pass"},
    plays="As Ks Qs Kh ~9s ~8c 8d ~Js ~Ac",
)
ADVISE = ("leaves", "advise", "8s 9h Jc", "--trump", "9d", "--samples", "30", "--seed", "4")


def _ch_e1_showdown(d: Any) -> bool:
    """CH-E1: J♠J♥+10♣ (three jacks, impure) beats A♦K♦Q♦ (trump flush)."""
    categories = [h["category"] for h in d["hands"]]
    return (
        d["winner"] == 0 and d["ranking"] == [[0], [1]] and categories == ["three_jacks", "flush"]
    )


def _exchange_seat_holds_the_ten(d: Any) -> bool:
    """CH-2: the turned card is the trump ace; the seat holding the trump ten may exchange."""
    return d["turned"] == "A" + d["trump"] and "T" + d["trump"] in d["hands"][d["exchange_seat"]]


def _tl_e6(d: Any) -> bool:
    """TL-E6: tricks to A, C, C; nobody has three, C (2 tricks) collects from B and D."""
    return (
        d["outcome"] == "tricks"
        and [t["winner"] for t in d["tricks"]] == [0, 2, 2]
        and sorted((p["payer"], p["payee"]) for p in d["payments"]) == [(1, 2), (3, 2)]
        and d["pot_after"] == d["pot_before"]
        and _money_is_conserved(d)
    )


def _tl_e1(d: Any) -> bool:
    """TL-E1: the trump khlyust takes the pot; the opponents pay 11, 4 and 8 as they pick."""
    payments = [(p["card"], p["amount"]) for p in d["payments"]]
    return (
        (d["outcome"], d["khlyust"]["class"], d["khlyust"]["points"])
        == ("khlyust", "trump_khlyust", 23)
        and payments == [("As", 11), ("Ks", 4), ("8s", 8)]
        and _money_is_conserved(d)
    )


def _tl_e7_playout(d: Any) -> bool:
    """TL-E7: the holder (seat 0) took one trick: half the pot, the other half stays."""
    return (
        d["outcome"] == "playout"
        and d["trick_counts"][0] == 1
        and d["pot_taken"][0] == d["pot_before"] // 2 == d["pot_after"]
        and _money_is_conserved(d)
    )


def _exchange(d: Any) -> bool:
    """TL-3: seat 1 discarded two and drew, seat 2 passed (out of the deal)."""
    return (
        d["exchanges"] == {"1": "draw 2 (discard 9h Jc)", "2": "pass"}
        and d["in_deal"] == [True, True, False, True]
        and d["trick_counts"] == [3, 0, 0, 0]
        and _money_is_conserved(d)
    )


def _session(d: Any) -> bool:
    """TL-6: the pot left by TL-E6 is carried into TL-E1."""
    first, second = d["deals"]
    return (
        second["carried_in"] == first["pot_after"]
        and d["pot"] == second["pot_after"]
        and all(_money_is_conserved(x) for x in d["deals"])
    )


def _advise_all(d: Any) -> bool:
    """Odds, tricks and the 9 TL-3 options: stand, pass, 3 + 3 + 1 discards."""
    return (
        set(d) == {"odds", "tricks", "exchange"}
        and len(d["exchange"]) == 9
        and abs(sum(d["odds"]["holding"].values()) - 1) < 1e-12
    )


CASES = [
    # --- Chlust (RULES.md §3)
    Case("chlust-evaluate", ("chlust", "evaluate", "Js Jh Tc", "-t", "d"),
         check=lambda d: (d["category"], d["pure"]) == ("three_jacks", False), id="CH-E1"),
    Case("chlust-evaluate", ("chlust", "evaluate", "Ts Qh Qd", "-t", "c", "--turned", "Kc"),
         check=lambda d: (d["category"], d["rank"], d["wild"], d["wild_role"])
         == ("three_of_a_rank", "Q", "Ts", "substitute"), id="CH-E6"),
    Case("chlust-evaluate", ("chlust", "evaluate", "Qh Jd Tc", "-t", "d"),
         check=lambda d: (d["category"], d["key"]) == ("none", 0), id="CH-E8"),
    Case("chlust-showdown", ("chlust", "showdown", "-t", "d", "Js Jh Tc", "Ad Kd Qd"),
         check=_ch_e1_showdown, id="CH-E1"),
    Case("chlust-showdown", ("chlust", "showdown", "-t", "s", "Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"),
         check=lambda d: (d["needs_tricks"], d["winner"]) == (True, None), id="CH-E11-no-sets"),
    Case("chlust-legal", ("chlust", "legal", "Th Kh Ac", "--trick", "Qd Kd Jh", "-t", "h"),
         check=lambda d: d["legal"] == ["Kh"], id="CH-E10"),
    Case("chlust-legal", ("chlust", "legal", "Th Kh Ac", "-t", "h"),
         check=lambda d: d["trick"] == [] and sorted(d["legal"]) == ["Ac", "Kh", "Th"], id="lead"),
    Case("chlust-play", ("chlust", "play", "-"), CH_E11,
         check=lambda d: d["winners"] == [1] and d["shares"]["1"] == "1" and _shares_add_up(d),
         id="CH-E11"),
    Case("chlust-play", ("chlust", "play", "-"), dict(CH_E11, rules={"trick_tie": "thirds"}),
         check=lambda d: d["shares"] == {"0": "1/3", "1": "2/3", "2": "0"} and _shares_add_up(d),
         id="CH-E11-thirds"),
    Case("chlust-odds", ("chlust", "odds", "Ad Kd Qd", "-t", "d"),
         check=lambda d: (d["method"], d["deals"], d["seed"]) == ("exact", 680, None)
         and abs(d["win"]["value"] - 670 / 680) < 1e-12 and _estimates_hold(d, exact=True),
         id="exact"),
    Case("chlust-odds", ("chlust", "odds", "Qh Jd Tc", "-t", "s", "-k", "3", "--samples", "300",
                         "--seed", "2"),
         check=lambda d: (d["method"], d["deals"], d["seed"], d["win"]["value"])
         == ("monte_carlo", 300, 2, 0.0) and _estimates_hold(d, exact=False),
         id="sampled-no-set"),
    Case("chlust-advise", ("chlust", "advise", "-"), POSITION,
         check=lambda d: (d["method"], d["seed"]) == ("exact", None)
         and _estimates_hold(d["expected"], exact=True), id="exact"),
    Case("chlust-advise", ("chlust", "advise", "-", "--samples", "40", "--seed", "3"), MID_TRICK,
         check=lambda d: (d["method"], d["deals"], d["seed"]) == ("monte_carlo", 40, 3)
         and _estimates_hold(d["expected"], exact=False), id="sampled"),
    Case("chlust-deal", ("chlust", "deal", "--seed", "3"), check=_exchange_seat_holds_the_ten,
         id="CH-2-exchange"),
    Case("chlust-deal", ("chlust", "deal", "--seed", "1", "-n", "2"),
         check=lambda d: (len(d["hands"]), len(d["stock"])) == (2, 13), id="two-players"),
    Case("chlust-bid", ("chlust", "bid", "raise", "fold", "call", "-n", "3"),
         check=lambda d: (d["is_over"], d["in_play"], d["pot"]) == (True, [0, 1], 5),
         id="CH-6-over"),
    Case("chlust-bid", ("chlust", "bid", "raise", "-n", "3"),
         check=lambda d: (d["to_act"], d["legal"]) == (2, ["fold", "call", "raise"]),
         id="CH-6-open"),
    # --- Three Leaves (RULES.md §4)
    Case("leaves-evaluate", ("leaves", "evaluate", "As Ks 8s", "--trump", "s"),
         check=lambda d: (d["class"], d["points"]) == ("trump_khlyust", 23), id="TL-E1"),
    Case("leaves-evaluate", ("leaves", "evaluate", "Qs Qh Qd", "--trump", "c", "--position", "2"),
         check=lambda d: (d["class"], d["key"][3]) == ("three_of_a_rank", -2), id="TL-E2"),
    Case("leaves-legal", ("leaves", "legal", "8d Ac Kh", "--trump", "d", "--trick", "As"),
         check=lambda d: {(p["card"], p["face_down"]) for p in d["plays"] if p["heads_trick"]}
         == {("8d", False)}, id="TL-E5"),
    Case("leaves-legal", ("leaves", "legal", "8d Ac Kh", "--trump", "d"),
         check=lambda d: d["led"] is None, id="lead"),
    Case("leaves-deal", ("leaves", "deal", "--seed", "7"),
         check=lambda d: len(d["hands"]) == 4 and d["assistant"] == 0, id="seed-7"),
    Case("leaves-deal", ("leaves", "deal", "--seed", "7", "--rules", "three_players", "--set",
                         "deck=32", "--dealer", "0"),
         check=lambda d: len(d["stock"]) == 32 - 10 and d["assistant"] == 1, id="three-32"),
    Case("leaves-resolve", ("leaves", "resolve", json.dumps(TL_E7)),
         check=lambda d: (d["winner"], d["khlyusts"][0]["class"]) == (0, "plain_khlyust"),
         id="TL-E7"),
    Case("leaves-resolve", ("leaves", "resolve", "-"), TL_E6,
         check=lambda d: (d["winner"], d["khlyusts"]) == (None, []), id="TL-E6"),
    Case("leaves-play", ("leaves", "play", "-"), TL_E6, check=_tl_e6, id="TL-E6"),
    Case("leaves-play", ("leaves", "play", "-"), TL_E1, check=_tl_e1, id="TL-E1"),
    Case("leaves-play", ("leaves", "play", "-"), PLAYOUT, check=_tl_e7_playout, id="TL-E7"),
    Case("leaves-play", ("leaves", "play", "-"), EXCHANGE, check=_exchange, id="TL-3-exchange"),
    Case("leaves-play", ("leaves", "play", "-"), {"deals": [TL_E6, TL_E1]}, check=_session,
         id="TL-6-session"),
    Case("leaves-advise", ADVISE, check=_advise_all, id="all"),
    Case("leaves-advise", ("leaves", "advise", "Ad Kd Qd", "--trump", "9d", "--rules",
                           "two_players", "--position", "0", "--what", "tricks"),
         check=lambda d: (d["tricks"]["method"], d["tricks"]["three_tricks"]["value"])
         == ("exact", 1.0), id="tricks-exact"),
    Case("leaves-advise", (*ADVISE, "--what", "exchange", "--carried-pot", "4"),
         check=lambda d: set(d) == {"exchange"}, id="exchange"),
]  # fmt: skip


def _stdin(case: Case) -> str | None:
    return None if case.stdin is None else json.dumps(case.stdin)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.schema}-{c.id}" for c in CASES])
def test_json_output_matches_its_schema_in_process_and_remote(case: Case, server: str) -> None:
    """Strict JSON valid against the command's schema, identical with --server, with the rules'
    answer (CH-* / TL-* worked examples, CH-9 and TL-6 bookkeeping)."""
    local = run_json(list(case.args), _stdin(case))
    validator(case.schema).validate(local)
    remote = run_json([*case.args, "--server", server], _stdin(case))
    assert remote == local
    assert case.check(local), local


def test_every_game_command_has_a_schema_a_case_and_a_doc_line() -> None:
    """Issue 5: every chlust/leaves command's --json has a schema, exercised here and listed in
    docs/CLI-JSON.md's table; every schema file there is a valid draft 2020-12 schema."""
    from cpsolver.client.cli.chlust import chlust
    from cpsolver.client.cli.leaves import leaves

    table = (DOCS / "CLI-JSON.md").read_text()
    covered = {c.schema for c in CASES}
    for group in (chlust, leaves):
        for command in group.commands:
            name = f"{group.name}-{command}"
            assert (SCHEMAS / f"{name}.schema.json").is_file(), name
            assert name in covered, name
            assert f"`docs/schemas/{name}.schema.json`" in table, name
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$id"] == f"cpsolver/cli/{path.name}"
        assert f"docs/schemas/{path.name}" in table, path.name


def _mutated(data: Any, change: Callable[[Any], object]) -> Any:
    copied = copy.deepcopy(data)
    change(copied)
    return copied


def _rejects(schema: str, good: Any, change: Callable[[Any], object], where: str) -> None:
    """The schema accepts ``good`` and rejects it after ``change``, at ``where`` (a key on
    the error's path, a schema keyword or a word of the message)."""
    v = validator(schema)
    v.validate(good)
    errors = list(v.iter_errors(_mutated(good, change)))
    assert errors, f"{schema} accepted a wrong shape"
    paths = {str(p) for e in errors for ctx in (e, *e.context) for p in ctx.absolute_path}
    paths |= {str(ctx.validator) for e in errors for ctx in (e, *e.context)}
    messages = " ".join(ctx.message for e in errors for ctx in (e, *e.context))
    assert where in paths or where in messages, (where, paths, messages)


def test_chlust_schemas_reject_wrong_shapes() -> None:
    """Bad enums (CH-4 categories, CH-6 actions), missing keys, a wrong card count, and the
    conditional rules (a bidding round that is over has nobody to act)."""
    ev = run_json(["chlust", "evaluate", "Js Jh Tc", "-t", "d"])
    _rejects("chlust-evaluate", ev, lambda d: d.update(category="straight"), "category")
    _rejects("chlust-evaluate", ev, lambda d: d.pop("wild_role"), "wild_role")
    _rejects("chlust-evaluate", ev, lambda d: d.update(key="805309371"), "key")
    no_set = run_json(["chlust", "evaluate", "Qh Jd Tc", "-t", "d"])
    _rejects("chlust-evaluate", no_set, lambda d: d.update(key=7), "key")  # CH-5: no set is 0
    show = run_json(["chlust", "showdown", "-t", "d", "Js Jh Tc", "Ad Kd Qd"])
    _rejects("chlust-showdown", show, lambda d: d["hands"][1].pop("seat"), "seat")
    _rejects("chlust-showdown", show, lambda d: d.update(needs_tricks=True), "winner")
    odds = run_json(["chlust", "odds", "Ad Kd Qd", "-t", "d"])
    _rejects("chlust-odds", odds, lambda d: d.update(method="guess"), "method")
    _rejects("chlust-odds", odds, lambda d: d["tricks"].pop("exact"), "exact")
    _rejects("chlust-odds", odds, lambda d: d["win"].update(value=1.5), "value")
    _rejects("chlust-odds", odds, lambda d: d["lose"].update(exact=False), "exact")  # exact method
    _rejects("chlust-odds", odds, lambda d: d.update(win=1.5), "win")
    advice = run_json(["chlust", "advise", "-"], json.dumps(POSITION))
    _rejects("chlust-advise", advice, lambda d: d["expected"]["Qd"].pop("low"), "low")
    _rejects("chlust-advise", advice, lambda d: d["expected"].update(Qd=1.0), "Qd")
    dealt = run_json(["chlust", "deal", "--seed", "1"])
    _rejects("chlust-deal", dealt, lambda d: d["hands"][0].pop(), "0")
    _rejects("chlust-deal", dealt, lambda d: d.update(turned="10s"), "turned")
    bid = run_json(["chlust", "bid", "raise", "fold", "call", "-n", "3"])
    _rejects("chlust-bid", bid, lambda d: d["history"][0].update(action="bet"), "action")
    _rejects("chlust-bid", bid, lambda d: d.update(to_act=2), "to_act")
    play = run_json(["chlust", "play", "-"], json.dumps(CH_E11))
    _rejects("chlust-play", play, lambda d: d.update(carried=0), "carried")
    _rejects("chlust-play", play, lambda d: d["shares"].update({"seat 1": "1"}), "seat 1")


def _old_odds(odds: Any) -> Any:
    """The ``chlust odds --json`` shape before estimate objects: numbers and ``ci95`` lists."""
    names = ("win", "lose", "tricks")
    old = {k: v for k, v in odds.items() if k not in names}
    old.update({k: odds[k]["value"] for k in names})
    old["ci95"] = {k: [odds[k]["low"], odds[k]["high"]] for k in names}
    return old


def _old_advice(advice: Any) -> Any:
    """The ``chlust advise --json`` shape before estimate objects: numbers and half-widths."""
    expected = advice["expected"]
    return dict(
        advice,
        expected={c: e["value"] for c, e in expected.items()},
        ci95={c: e["high"] - e["value"] for c, e in expected.items()},
    )


@pytest.mark.parametrize(
    "args", [("Ad Kd Qd", "-t", "d"), ("Qh Jd Tc", "-t", "s", "-k", "3", "--samples", "300")]
)
def test_chlust_odds_schema_rejects_the_old_ci95_shape(args: tuple[str, ...]) -> None:
    """CH-7 odds: the schema takes the estimate objects (as Three Leaves) and refuses the old
    bare probabilities with a ``ci95`` object of ``[low, high]`` lists, and ``ci95`` beside
    estimates."""
    v = validator("chlust-odds")
    odds = run_json(["chlust", "odds", *args])
    v.validate(odds)
    old = _old_odds(odds)
    paths = {str(p) for e in v.iter_errors(old) for p in e.absolute_path}
    assert {"win", "lose", "tricks", "ci95"} <= paths, paths
    _rejects("chlust-odds", odds, lambda d: d.update(ci95=old["ci95"]), "ci95")


def test_chlust_advise_schema_rejects_the_old_ci95_shape() -> None:
    """CH-8 advice: expected tricks per card are estimate objects, not numbers beside a
    ``ci95`` object of half-widths."""
    v = validator("chlust-advise")
    for args, stdin in (([], POSITION), (["--samples", "40", "--seed", "3"], MID_TRICK)):
        advice = run_json(["chlust", "advise", "-", *args], json.dumps(stdin))
        v.validate(advice)
        old = _old_advice(advice)
        paths = {str(p) for e in v.iter_errors(old) for p in e.absolute_path}
        assert {"ci95", *advice["expected"]} <= paths, paths


@settings(max_examples=25, derandomize=True, deadline=None)
@example(hand="Js Jh Tc", trump="d", opponents=3, exact_limit=0, samples=400, seed=0)  # win 1
@given(
    hand=st.sampled_from(["Ad Kd Qd", "Js Jh Tc", "Qh Jd Tc", "Qs Qh Qc", "Ah Kc Td", "Ts Ks As"]),
    trump=st.sampled_from("cdhs"),
    opponents=st.integers(1, 3),
    exact_limit=st.sampled_from([0, 2_000]),
    samples=st.sampled_from([1, 2, 7, 50, 400]),
    seed=st.integers(0, 2**16),
)
def test_chlust_odds_estimates_hold_their_values(
    hand: str, trump: str, opponents: int, exact_limit: int, samples: int, seed: int
) -> None:
    """CH-7 odds from the library's JSON: low <= value <= high for win, lose and tricks (also at
    0 and 1, e.g. three jacks always win, CH-4), a point when exact, valid against the schema,
    and the values of win + lose + tricks sum to 1 (CH-5: two sets never tie)."""
    odds = showdown_odds(
        hand, trump, opponents=opponents, exact_limit=exact_limit, samples=samples, seed=seed
    ).to_dict()
    validator("chlust-odds").validate(odds)
    assert _estimates_hold(odds, exact=odds["method"] == "exact"), odds
    total = sum(odds[k]["value"] for k in ("win", "lose", "tricks"))  # type: ignore[index]
    assert abs(total - 1) < 1e-12


@settings(max_examples=6, derandomize=True, deadline=None)
@given(samples=st.integers(2, 12), seed=st.integers(0, 2**16))
def test_chlust_advise_estimates_hold_their_values(samples: int, seed: int) -> None:
    """CH-8 advice from the library's JSON: each card's expected tricks (0 to 3) lies in its
    interval value -/+ half-width, valid against the schema."""
    trick = Trick.of(Suit.SPADES, 0, parse_cards("Qh Ah"), seats=[0, 1])
    advice = advise_play(
        "Ad Kh Ts", trick, seat=2, seats=[0, 1, 2, 3], samples=samples, seed=seed
    ).to_dict()
    validator("chlust-advise").validate(advice)
    assert _estimates_hold(advice["expected"], exact=False), advice
    for e in _estimates(advice):
        assert (
            0 <= e["value"] <= 3 and abs((e["high"] - e["value"]) - (e["value"] - e["low"])) < 1e-9
        )


def test_leaves_schemas_reject_wrong_shapes() -> None:
    """Bad TL-4 classes, missing keys, a malformed exchange (TL-3) and estimate, and the
    conditional rules (a deal settled by tricks has no khlyust)."""
    ev = run_json(["leaves", "evaluate", "As Ks 8s", "--trump", "s"])
    _rejects("leaves-evaluate", ev, lambda d: d.update({"class": "khlyust"}), "class")
    _rejects("leaves-evaluate", ev, lambda d: d.update(is_khlyust=False), "is_khlyust")
    _rejects("leaves-evaluate", ev, lambda d: d["key"].pop(), "key")
    legal = run_json(["leaves", "legal", "8d Ac Kh", "--trump", "d", "--trick", "As"])
    _rejects("leaves-legal", legal, lambda d: d["plays"][0].pop("face_down"), "face_down")
    _rejects("leaves-legal", legal, lambda d: d.update(led="spades"), "led")
    resolved = run_json(["leaves", "resolve", json.dumps(TL_E7)])
    bad_class = {"class": "none"}  # TL-4: a khlyust found has a khlyust class
    _rejects("leaves-resolve", resolved, lambda d: d["khlyusts"][0].update(bad_class), "class")
    played = run_json(["leaves", "play", "-"], json.dumps(EXCHANGE))
    _rejects("leaves-play", played, lambda d: d.pop("net"), "net")
    _rejects("leaves-play", played, lambda d: d["exchanges"].update({"1": "draw 2"}), "1")
    _rejects("leaves-play", played, lambda d: d.update(khlyust={"seat": 0}), "khlyust")
    _rejects("leaves-play", played, lambda d: d.update(outcome="won"), "outcome")
    session = run_json(["leaves", "play", "-"], json.dumps({"deals": [TL_E6, TL_E1]}))
    _rejects("leaves-play", session, lambda d: d["deals"][1].pop("payments"), "payments")
    advice = run_json(list(ADVISE))
    _rejects("leaves-advise", advice, lambda d: d["exchange"][0].update(action="draw"), "action")
    _rejects("leaves-advise", advice, lambda d: d["tricks"]["three_tricks"].pop("exact"), "exact")
    _rejects("leaves-advise", advice, lambda d: d["odds"]["holding"].pop("none"), "none")
    _rejects("leaves-advise", {"odds": advice["odds"]}, lambda d: d.clear(), "minProperties")


def test_chlust_advise_needs_two_samples_for_its_interval() -> None:
    """A sampled advice reports a 95% half-width per card, which one sample cannot give (it was
    printed as ``Infinity``, not JSON): the CLI and the library refuse fewer than two."""
    code, out, err = run_cli(
        ["chlust", "advise", "-", "--samples", "1", "--json"], json.dumps(MID_TRICK)
    )
    assert code == 2 and out == "" and "--samples" in err
    trick = Trick.of(Suit.SPADES, 0, parse_cards("Qh Ah"), seats=[0, 1])
    with pytest.raises(InvalidInputError) as caught:
        advise_play("Ad Kh Ts", trick, seat=2, seats=[0, 1, 2, 3], samples=1)
    assert caught.value.field == "samples"
    two = run_json(["chlust", "advise", "-", "--samples", "2"], json.dumps(MID_TRICK))
    validator("chlust-advise").validate(two)
    assert two["method"] == "monte_carlo" and two["deals"] == 2


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("odds", "Ad Kd Qd", "-t", "d", "-k", "3", "--seed", "-1"), "error: --seed: -1 is not in"),
        (("odds", "Ad Kd Qd", "-t", "d", "--samples", "0"), "error: --samples: 0 is not in"),
        (("odds", "Ad Kd Qd", "-t", "d", "--exact-limit", "-1"), "error: --exact-limit: -1 is not"),
        (("advise", "-", "--samples", "1"), "error: --samples: 1 is not in"),
    ],
)
def test_chlust_sampling_options_fail_the_same_both_ways(
    args: tuple[str, ...], needle: str, server: str
) -> None:
    """A negative seed was a traceback (numpy refuses it) in-process and an internal error
    remotely; bounds the server checks gave other lines in-process. Now: exit 2, no JSON on
    stdout, the same stderr either way."""
    stdin = json.dumps(MID_TRICK) if args[0] == "advise" else None
    local = run_cli(["chlust", *args, "--json"], stdin)
    remote = run_cli(["chlust", *args, "--json", "--server", server], stdin)
    assert local[0] == 2 and local[1] == "" and needle in local[2], local
    assert remote == local

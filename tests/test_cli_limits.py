"""One source of truth for per-call work caps and number ranges (issue 5: the same output
in-process and with ``--server``).

Each cap is a constant next to the library function it limits; the library checks it, the
server refuses a request past it (INVALID_ARGUMENT, a BadRequest violation naming the field),
the typed remote client checks it before sending (so a value the wire cannot even carry gives
the library's error, not a protobuf traceback) and the CLI option's ``IntRange`` uses it (so
``--help`` shows it and the refusal is the same usage error either way). Boundary + 1 is
refused everywhere; the boundary is accepted (through the CLI where that is cheap, else
through the check functions).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from helpers import run_cli, violations, wire

from cpsolver.cards import Suit, parse_cards
from cpsolver.chinese.deal import MAX_SEED as DEAL_MAX_SEED
from cpsolver.chinese.estimator import MAX_ARRANGEMENTS
from cpsolver.chinese.rollouts import MAX_ROLLOUTS
from cpsolver.chinese.solve import MAX_ALTERNATIVES, check_solve_limits
from cpsolver.chlust.advice import (
    MAX_ADVICE_SAMPLES,
    MAX_EXACT_LIMIT,
    MAX_ODDS_SAMPLES,
    check_advice_limits,
    check_odds_limits,
)
from cpsolver.chlust.deal import MAX_SEED as CHLUST_MAX_SEED
from cpsolver.chlust.deal import check_deal_request
from cpsolver.client import LocalSolver, RemoteSolver
from cpsolver.errors import InvalidInputError
from cpsolver.seeds import MAX_SEED
from cpsolver.three_leaves import Choices, Deal
from cpsolver.three_leaves.advice import MAX_SAMPLES as LEAVES_MAX_SAMPLES
from cpsolver.three_leaves.advice import check_advice_limits as check_leaves_advice
from cpsolver.three_leaves.deal import MAX_CARRIED_POT, check_play_limits
from cpsolver.three_leaves.deal import MAX_SEED as LEAVES_MAX_SEED
from cpsolver.tricks import Trick
from cpsolver.v1 import (
    chinese_poker_pb2,
    chinese_poker_pb2_grpc,
    chlust_pb2,
    chlust_pb2_grpc,
    three_leaves_pb2,
    three_leaves_pb2_grpc,
)

HAND13 = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
MID_TRICK = {  # four players, seat 2 answers a trick (RULES §3): sampled advice
    "hand": "Ad Kh Ts",
    "trump": "s",
    "seat": 2,
    "seats": [0, 1, 2, 3],
    "trick": {"leader": 0, "cards": "Qh Ah"},
}
# TL-E3 at a table of four (RULES §4): trumps ♦, seat 0 (the assistant) holds J♦10♦8♦, a trump
# khlyust of 2 + 10 + 8 = 20 points; seat 1 holds A♥K♥Q♥, a plain khlyust of 11 + 4 + 3 = 18.
TL_E3 = {
    "hands": ["Jd Td 8d", "Ah Kh Qh", "9s Ac 8h", "Ks Qc Jh"],
    "trump_card": "9d",
    "picks": ["Jd", "Td", "8d"],
}
TL_E6 = {
    "hands": ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"],
    "trump_card": "9d",
    "plays": "As Ks Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Jc",
}


def both_ways(server: str, args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """Run ARGS in-process and with --server: the same exit code, stdout and stderr."""
    local = run_cli(args, stdin)
    remote = run_cli([*args, "--server", server], stdin)
    assert remote == local, (args, local, remote)
    return local


# (command, option, boundary value, the option's lower bound): boundary + 1 is refused.
CLI_CAPS: list[tuple[list[str], str, int, int]] = [
    (["solve", HAND13], "--arrangements", MAX_ARRANGEMENTS, 1),
    (["solve", HAND13], "--seed", MAX_SEED, 0),
    (["batch", "-"], "--arrangements", MAX_ARRANGEMENTS, 1),
    (["deal"], "--seed", DEAL_MAX_SEED, 0),
    (["chlust", "odds", "Ad Kd Qd", "-t", "d"], "--samples", MAX_ODDS_SAMPLES, 1),
    (["chlust", "odds", "Ad Kd Qd", "-t", "d"], "--exact-limit", MAX_EXACT_LIMIT, 0),
    (["chlust", "odds", "Ad Kd Qd", "-t", "d"], "--seed", CHLUST_MAX_SEED, 0),
    (["chlust", "advise", "-"], "--samples", MAX_ADVICE_SAMPLES, 2),
    (["chlust", "advise", "-"], "--seed", CHLUST_MAX_SEED, 0),
    (["chlust", "deal"], "--seed", CHLUST_MAX_SEED, 0),
    (["leaves", "advise", "8s 9h Jc", "--trump", "9d"], "--samples", LEAVES_MAX_SAMPLES, 2),
    (["leaves", "advise", "8s 9h Jc", "--trump", "9d"], "--seed", LEAVES_MAX_SEED, 0),
    (
        ["leaves", "advise", "8s 9h Jc", "--trump", "9d"],
        "--carried-pot",
        MAX_CARRIED_POT,
        0,
    ),
]


@pytest.mark.parametrize(
    ("command", "option", "cap", "low"),
    CLI_CAPS,
    ids=[f"{' '.join(c[0][:2])} {c[1]}" for c in CLI_CAPS],
)
def test_cli_option_past_its_cap_exits_2_the_same_remote(
    server: str, command: list[str], option: str, cap: int, low: int
) -> None:
    """Boundary + 1 (and lower bound - 1) of every capped option: exit 2, nothing on stdout and
    the same usage error naming the option and the library constant's range, in-process and
    with --server; ``--help`` shows the range."""
    stdin = json.dumps(MID_TRICK) if command[:2] == ["chlust", "advise"] else HAND13
    for value in (cap + 1, low - 1):
        code, out, err = both_ways(server, [*command, option, str(value)], stdin)
        assert code == 2 and out == ""
        assert err.startswith(f"error: {option}: {value} is not in the range"), err
        assert err.count("\n") == 1, err  # one line, the documented form
        assert f"{low}<=x<={cap}" in err
    name = command[:2] if command[0] in ("chlust", "leaves") else command[:1]
    code, out, _ = run_cli([*name, "-h"])
    assert code == 0 and f"{low}<=x<={cap}" in " ".join(out.split())


AT_THE_CAP = {  # shell words
    "arrangements": f"solve '{HAND13}' --objective strength --arrangements {MAX_ARRANGEMENTS}",
    "rollout-seed": f"solve '{HAND13}' --estimator rollouts:3 --seed {MAX_SEED}",
    "deal-seed": f"deal --seed {DEAL_MAX_SEED}",
    "exact-limit": f"chlust odds 'Ad Kd Qd' -t d --exact-limit {MAX_EXACT_LIMIT}",
    "odds-seed": f"chlust odds 'Ad Kd Qd' -t d -k 3 --exact-limit 0 --samples 50 "
    f"--seed {CHLUST_MAX_SEED}",
    "chlust-deal": f"chlust deal --seed {CHLUST_MAX_SEED}",
    "leaves-advise": f"leaves advise '8s 9h Jc' --trump 9d --samples 2 "
    f"--seed {LEAVES_MAX_SEED} --carried-pot {MAX_CARRIED_POT}",
}


@pytest.mark.parametrize("words", list(AT_THE_CAP.values()), ids=list(AT_THE_CAP))
def test_cli_option_at_its_cap_runs_the_same_remote(server: str, words: str) -> None:
    """The boundary itself is accepted, with the same output both ways (where that is cheap;
    the sample caps are checked at the boundary through the library's check functions)."""
    args = shlex.split(words)
    code, out, _ = both_ways(server, [*args, "--json"])
    assert code == 0 and out.strip()
    if args[0] == "solve" and "--arrangements" in args:
        assert len(json.loads(out)["alternatives"]) == MAX_ARRANGEMENTS - 1


def _refused(check: Callable[..., None], field: str, **kwargs: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        check(**kwargs)
    assert [v.field for v in caught.value.violations] == [field]


def test_library_checks_accept_the_boundary_and_refuse_one_past_it() -> None:
    """The check functions the library, the server and the remote client share."""
    check_solve_limits(alternatives=MAX_ALTERNATIVES, rollouts=MAX_ROLLOUTS, seed=MAX_SEED)
    _refused(check_solve_limits, "alternatives", alternatives=MAX_ALTERNATIVES + 1)
    _refused(check_solve_limits, "rollouts", rollouts=MAX_ROLLOUTS + 1)
    _refused(check_solve_limits, "seed", seed=MAX_SEED + 1)
    _refused(check_solve_limits, "seed", seed=-1)
    odds = {"opponents": 3, "samples": MAX_ODDS_SAMPLES, "exact_limit": MAX_EXACT_LIMIT}
    check_odds_limits(**odds, seed=CHLUST_MAX_SEED)
    _refused(check_odds_limits, "samples", **{**odds, "samples": MAX_ODDS_SAMPLES + 1}, seed=0)
    past_exact = {**odds, "exact_limit": MAX_EXACT_LIMIT + 1}
    _refused(check_odds_limits, "exact_limit", **past_exact, seed=0)
    _refused(check_odds_limits, "seed", **odds, seed=CHLUST_MAX_SEED + 1)
    _refused(check_odds_limits, "opponents", **{**odds, "opponents": 4}, seed=0)  # CH-1
    check_advice_limits(samples=MAX_ADVICE_SAMPLES, seed=CHLUST_MAX_SEED, seat=3, seats=[0, 3])
    _refused(check_advice_limits, "samples", samples=MAX_ADVICE_SAMPLES + 1, seed=0)
    _refused(check_advice_limits, "seed", samples=2, seed=CHLUST_MAX_SEED + 1)
    _refused(check_advice_limits, "seats", samples=2, seed=0, seat=0, seats=[0, 4])  # CH-1
    check_deal_request(4, seed=CHLUST_MAX_SEED, dealer=3)
    _refused(check_deal_request, "seed", players=4, seed=CHLUST_MAX_SEED + 1)
    _refused(check_deal_request, "dealer", players=4, seed=0, dealer=4)
    check_play_limits(seed=LEAVES_MAX_SEED, carried_pot=MAX_CARRIED_POT)
    _refused(check_play_limits, "seed", seed=LEAVES_MAX_SEED + 1)
    _refused(check_play_limits, "carried_pot", carried_pot=MAX_CARRIED_POT + 1)
    leaves = {"position": 3, "samples": LEAVES_MAX_SAMPLES, "carried_pot": MAX_CARRIED_POT}
    check_leaves_advice(**leaves, seed=LEAVES_MAX_SEED)
    _refused(check_leaves_advice, "samples", **{**leaves, "samples": LEAVES_MAX_SAMPLES + 1})
    _refused(check_leaves_advice, "seed", **leaves, seed=LEAVES_MAX_SEED + 1)
    _refused(check_leaves_advice, "position", **{**leaves, "position": 4})  # TL-1: 4 players


def _same_error(local: Callable[[], object], remote: Callable[[], object]) -> str:
    with pytest.raises(InvalidInputError) as mine:
        local()
    with pytest.raises(InvalidInputError) as theirs:
        remote()
    assert theirs.value.violations == mine.value.violations
    return str(mine.value)


def test_typed_client_refuses_past_the_caps_like_the_library(remote: RemoteSolver) -> None:
    """LocalSolver and RemoteSolver raise the same InvalidInputError one past each cap, also for
    values the wire cannot carry (they used to be protobuf ValueErrors remotely, or run
    in-process)."""
    local = LocalSolver()
    trick = Trick.of(Suit.SPADES, 0, parse_cards("Qh Ah"), seats=[0, 1])
    cases: list[tuple[str, Callable[[Any], object]]] = [
        ("rollouts", lambda s: s.solve(HAND13, rollouts=MAX_ROLLOUTS + 1)),
        ("seed", lambda s: s.solve(HAND13, seed=MAX_SEED + 1)),
        ("seed", lambda s: s.solve(HAND13, seed=-1)),
        ("alternatives", lambda s: s.solve(HAND13, "standard", "strength", alternatives=10**12)),
        ("samples", lambda s: s.chlust.showdown_odds("Ad Kd Qd", "d", samples=MAX_ODDS_SAMPLES + 1)),  # noqa: E501
        ("exact_limit", lambda s: s.chlust.showdown_odds("Ad Kd Qd", "d", exact_limit=MAX_EXACT_LIMIT + 1)),  # noqa: E501
        ("opponents", lambda s: s.chlust.showdown_odds("Ad Kd Qd", "d", opponents=2**40)),
        ("seed", lambda s: s.chlust.showdown_odds("Ad Kd Qd", "d", seed=CHLUST_MAX_SEED + 1)),
        ("samples", lambda s: s.chlust.advise(
            "Ad Kh Ts", trick, seat=2, seats=[0, 1, 2], samples=MAX_ADVICE_SAMPLES + 1)),
        ("seats", lambda s: s.chlust.advise("Ad Kh Ts", trick, seat=2**40, seats=[0, 1, 2**40])),
        ("seed", lambda s: s.chlust.deal(CHLUST_MAX_SEED + 1, players=4)),
        ("dealer", lambda s: s.chlust.deal(1, players=4, dealer=2**40)),
        ("samples", lambda s: s.leaves.advise("8s 9h Jc", "9d", samples=LEAVES_MAX_SAMPLES + 1)),
        ("samples", lambda s: s.leaves.advise("8s 9h Jc", "9d", samples=0, odds=False)),
        ("seed", lambda s: s.leaves.advise("8s 9h Jc", "9d", seed=LEAVES_MAX_SEED + 1)),
        ("position", lambda s: s.leaves.advise("8s 9h Jc", "9d", position=2**40)),
        ("carried_pot", lambda s: s.leaves.advise(
            "8s 9h Jc", "9d", carried_pot=MAX_CARRIED_POT + 1, exchange=True)),
        ("carried_pot", lambda s: s.leaves.play_deal(
            Deal.of(TL_E6["hands"], "9d"), carried_pot=MAX_CARRIED_POT + 1)),
        ("seed", lambda s: s.leaves.play_deal(
            Deal.of(TL_E6["hands"], "9d"), Choices(seed=LEAVES_MAX_SEED + 1))),
        (f"exchanges.{2**40}", lambda s: s.leaves.play_deal(  # TL-1: seats 0 to 3
            Deal.of(TL_E6["hands"], "9d"), Choices.of(exchanges={2**40: "pass"}))),
    ]  # fmt: skip
    for field, call in cases:
        message = _same_error(lambda c=call: c(local), lambda c=call: c(remote))  # type: ignore[misc]
        assert message.startswith(f"{field}: "), message


def test_cli_leaves_play_exchange_of_no_seat_fails_the_same_remote(server: str) -> None:
    """TL-1 (seats 0 to 3): an exchange for a seat number the wire cannot even carry is the
    library's error either way (it was a protobuf traceback with --server). ``exchanges`` is a
    mapping by seat, so the path names the key (exchanges.N), not a list position."""
    deal = json.dumps(dict(TL_E6, stock="Js 9s Tc", exchanges={str(2**40): "pass"}))
    code, out, err = both_ways(server, ["leaves", "play", deal])
    assert code == 2 and out == ""
    assert err == f"error: exchanges.{2**40}: no such seat (0 to 3)\n"


def test_server_refuses_one_past_each_cap_naming_the_field(grpc_channel: grpc.Channel) -> None:
    """Raw gRPC requests one past each cap: INVALID_ARGUMENT with a BadRequest violation naming
    the field and the library constant."""
    chinese = chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)  # type: ignore[no-untyped-call]
    chlust = chlust_pb2_grpc.ChlustServiceStub(grpc_channel)  # type: ignore[no-untyped-call]
    leaves = three_leaves_pb2_grpc.ThreeLeavesServiceStub(grpc_channel)  # type: ignore[no-untyped-call]
    hand = wire(HAND13)
    odds = {"hand": wire("Ad Kd Qd"), "trump": "SUIT_DIAMONDS", "opponents": 1}
    advise = {"hand": wire("Ad Kh Ts"), "trump": "SUIT_SPADES", "seat": 2, "seats": [0, 1, 2],
              "trick": chlust_pb2.TrickRecord(leader=0, cards=wire("Qh Ah"))}  # fmt: skip
    tl = {"hand": wire("8s 9h Jc"), "trump_card": wire("9d")[0], "position": 1}
    e6 = {"hands": [three_leaves_pb2.LeavesHand(cards=wire(h)) for h in TL_E6["hands"]],
          "trump_card": wire("9d")[0]}  # fmt: skip
    calls: list[tuple[Callable[..., Any], Any, str, int]] = [
        (chinese.Solve, chinese_poker_pb2.SolveRequest(cards=hand, rollouts=MAX_ROLLOUTS + 1),
         "rollouts", MAX_ROLLOUTS),
        (chinese.Solve, chinese_poker_pb2.SolveRequest(cards=hand, top_k=MAX_ALTERNATIVES + 1),
         "top_k", MAX_ALTERNATIVES),
        (chlust.ShowdownOdds, chlust_pb2.ShowdownOddsRequest(**odds, samples=MAX_ODDS_SAMPLES + 1),
         "samples", MAX_ODDS_SAMPLES),
        (chlust.ShowdownOdds,
         chlust_pb2.ShowdownOddsRequest(**odds, exact_limit=MAX_EXACT_LIMIT + 1),
         "exact_limit", MAX_EXACT_LIMIT),
        (chlust.AdvisePlay,
         chlust_pb2.AdvisePlayRequest(**advise, samples=MAX_ADVICE_SAMPLES + 1),
         "samples", MAX_ADVICE_SAMPLES),
        (leaves.AdviseLeaves,
         three_leaves_pb2.AdviseLeavesRequest(**tl, samples=LEAVES_MAX_SAMPLES + 1),
         "samples", LEAVES_MAX_SAMPLES),
        (leaves.PlayLeavesDeal,
         three_leaves_pb2.PlayLeavesDealRequest(**e6, carried_pot=MAX_CARRIED_POT + 1),
         "carried_pot", MAX_CARRIED_POT),
    ]  # fmt: skip
    for method, request, field, cap in calls:
        with pytest.raises(grpc.RpcError) as caught:
            method(request, timeout=30)
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
        found = violations(caught.value)
        assert field in found and f"to {cap}, got {cap + 1}" in found[field], (field, found)


def test_leaves_play_khlyusts_carry_cards_and_top_like_resolve(server: str) -> None:
    """TL-E3 (RULES §4, trumps ♦): J♦10♦8♦ is a trump khlyust of 20 points with top J, A♥K♥Q♥
    a plain one of 18 with top A; ``leaves play`` lists both with the same ``cards`` and
    ``top`` as ``leaves resolve``, the same in-process and with --server."""
    deal = json.dumps(TL_E3)
    code, out, _ = both_ways(server, ["leaves", "play", deal, "--json"])
    assert code == 0
    played = json.loads(out)["khlyusts"]
    code, out, _ = both_ways(server, ["leaves", "resolve", deal, "--json"])
    assert code == 0
    resolved = json.loads(out)["khlyusts"]
    assert played == resolved
    summary = [(k["seat"], sorted(k["cards"]), k["class"], k["points"], k["top"]) for k in played]
    assert summary == [
        (0, sorted(["Jd", "Td", "8d"]), "trump_khlyust", 20, "J"),
        (1, sorted(["Ah", "Kh", "Qh"]), "plain_khlyust", 18, "A"),
    ]


def test_batch_against_a_server_with_a_smaller_max_batch_gives_every_hand(serve_grpc) -> None:  # type: ignore[no-untyped-def]
    """Batch sizes: a server started with ``--max-batch 3`` refuses a BatchSolve call of more
    hands; the client then asks in calls it accepts, so ``cpsolver batch`` writes the same
    lines (and reports the same bad line) as in-process, where there is no such cap."""
    from cpsolver.chinese.deal import deals

    hands = [" ".join(map(str, h)) for d in deals(3, players=4, count=2) for h in d.hands]
    text = "\n".join([*hands[:5], "As As", *hands[5:]]) + "\n"
    local = run_cli(["batch", "--objective", "strength"], text)
    assert local[0] == 2 and len(local[1].splitlines()) == 9
    with serve_grpc("--workers", "1", "--max-batch", "3") as server:
        remote = run_cli(
            ["batch", "--objective", "strength", "--server", str(server.address)], text
        )
        with RemoteSolver(str(server.address), timeout=60) as client:
            got = list(client.solve_batch(hands, objective="strength"))
    assert remote == local
    assert got == list(LocalSolver().solve_batch(hands, objective="strength"))

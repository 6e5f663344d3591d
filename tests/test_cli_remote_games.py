"""Chlust and Three Leaves commands against a server (issue 5): ``--server HOST:PORT`` gives the
same output, human and ``--json``, as in-process; bad input exits 2 with the same line; an
unreachable server exits 3. The typed client's game methods return what the library returns.

The server is the suite's shared ``cpsolver serve`` (``grpc_server``). Most runs use click's
in-process runner (the same code below the entry point; a remote run still goes over gRPC to
the real server), a few the installed command in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli

from cpsolver import InvalidInputError
from cpsolver.cards import Suit, parse_cards
from cpsolver.client import LocalSolver, RemoteSolver
from cpsolver.tricks import Trick

CPSOLVER = Path(sys.executable).with_name("cpsolver")


def run(*args: str, stdin: str | None = None, real: bool = False) -> tuple[int, str, str]:
    """``cpsolver ARGS``: (exit code, stdout, stderr)."""
    if real:
        env = {k: v for k, v in os.environ.items() if k not in ("CPSOLVER_SERVER", "NO_COLOR")}
        done = subprocess.run(
            [str(CPSOLVER), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=env,
        )
        return done.returncode, done.stdout, done.stderr
    return run_cli(args, stdin)


def same_both_ways(server: str, *args: str, stdin: str | None = None) -> dict[str, object]:
    """Run ARGS in-process and with --server, human and --json: the outputs are identical;
    returns the JSON document."""
    for extra in ((), ("--json",)):
        local = run(*args, *extra, stdin=stdin)
        remote = run(*args, *extra, "--server", server, stdin=stdin)
        assert local[0] == 0, local[2]
        assert remote == local, f"{args} {extra}"
    data = json.loads(local[1])
    assert isinstance(data, dict)
    return data


def same_error(server: str, *args: str, stdin: str | None = None) -> str:
    """ARGS is bad input: exit 2 and the same one line on stderr either way; returns it."""
    local = run(*args, stdin=stdin)
    remote = run(*args, "--server", server, stdin=stdin)
    assert local[0] == 2 and remote[0] == 2, (local, remote)
    assert remote[2] == local[2]
    lines = local[2].strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    return lines[0]


# --- Chlust (RULES.md §3) ----------------------------------------------------------------------

CH_E11 = {
    "hands": ["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"],
    "trump": "s",
    "turned": "Qs",
    "dealer": 0,
    "plays": ["Ah Kh Qh", "Kc Js Tc", "Ad Jd Td"],
}
POSITION = {  # two players, one trick played: an exact advice
    "hand": "Qd Qh",
    "trump": "s",
    "seat": 0,
    "seats": [0, 1],
    "history": [{"leader": 0, "cards": "Kd Ac"}],
    "trick": {"leader": 0, "cards": ""},
    "turned": "Js",
}
MID_TRICK = {  # four players, seat 2 answers a trick: sampled
    "hand": "Ad Kh Ts",
    "trump": "s",
    "seat": 2,
    "seats": [0, 1, 2, 3],
    "trick": {"leader": 0, "cards": "Qh Ah"},
}


def test_chlust_legal_ch_e10_same_remote(server: str) -> None:
    """CH-E10: trumps ♥, Q♦ K♦ J♥ on the trick: holding K♥ one must overtrump with it."""
    data = same_both_ways(server, "chlust", "legal", "Th Kh Ac", "--trick", "Qd Kd Jh", "-t", "h")
    assert data["legal"] == ["Kh"]
    args = ("chlust", "legal", "Th Ac Ks", "--trick", "Qd Kd Jh", "-t", "h")
    assert same_both_ways(server, *args)["legal"] == ["Th"]
    free = same_both_ways(server, *args, "--set", "underruff=may_discard")
    assert sorted(free["legal"]) == ["Ac", "Ks", "Th"]  # type: ignore[arg-type]


def test_chlust_play_ch_e11_same_remote(server: str) -> None:
    """CH-E11: seat 1 takes two tricks and the pot; in a subprocess too."""
    data = same_both_ways(server, "chlust", "play", "-", stdin=json.dumps(CH_E11))
    assert data["tricks_won"] == {"0": 1, "1": 2, "2": 0} and data["winners"] == [1]
    split = dict(CH_E11, rules={"trick_tie": "split"}, plays="Ah Kh Qh Kc Js Tc Ad Jd Td")
    same_both_ways(server, "chlust", "play", "-", stdin=json.dumps(split))
    local = run("chlust", "play", "-", stdin=json.dumps(CH_E11), real=True)
    remote = run("chlust", "play", "-", "--server", server, stdin=json.dumps(CH_E11), real=True)
    assert local[0] == 0 and remote == local and "seat 1 takes the pot" in local[1]


def test_chlust_odds_same_remote(server: str) -> None:
    """A♦K♦Q♦ under diamonds against one opponent (CH-4): of the C(17,3) = 680 hands left, only
    three jacks beat it - C(4,3) = 4 natural, C(4,2) = 6 with the wild 10♣ - so win = 670/680."""
    exact = same_both_ways(server, "chlust", "odds", "Ad Kd Qd", "-t", "d")
    assert exact["method"] == "exact" and exact["deals"] == 680
    assert abs(exact["win"]["value"] - 670 / 680) < 1e-12  # type: ignore[index]
    sampled = same_both_ways(
        server, "chlust", "odds", "Ad Kd Qd", "-t", "d", "-k", "3", "--samples", "500",
        "--seed", "4",
    )  # fmt: skip
    assert sampled["method"] == "monte_carlo" and sampled["seed"] == 4
    same_both_ways(server, "chlust", "odds", "Qh Jd Tc", "-t", "s", "-k", "2", "--dead", "As Ks")


def test_chlust_advise_deal_bid_same_remote(server: str) -> None:
    """Advice (exact and sampled), a seeded deal (CH-2) and a bidding round (CH-6)."""
    advice = same_both_ways(server, "chlust", "advise", "-", stdin=json.dumps(POSITION))
    assert advice["card"] == "Qd" and advice["method"] == "exact"
    sampled = same_both_ways(
        server, "chlust", "advise", "-", "--samples", "40", "--seed", "3",
        stdin=json.dumps(MID_TRICK),
    )  # fmt: skip
    assert sampled["method"] == "monte_carlo" and sampled["deals"] == 40
    dealt = same_both_ways(server, "chlust", "deal", "--seed", "1", "-n", "2")
    hands = [c for h in dealt["hands"] for c in h]  # type: ignore[attr-defined]
    assert len(hands) == 6 and dealt["turned"] not in hands and len(dealt["stock"]) == 13  # type: ignore[arg-type]
    same_both_ways(server, "chlust", "deal", "--seed", "9", "--rules", "nines", "--dealer", "2")
    bid = same_both_ways(server, "chlust", "bid", "raise", "fold", "call", "-n", "3")
    assert bid["is_over"] is True and bid["in_play"] == [0, 1] and bid["pot"] == 5
    open_round = same_both_ways(server, "chlust", "bid", "raise", "-n", "3")
    assert open_round["to_act"] == 2 and open_round["legal"] == ["fold", "call", "raise"]


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (("legal", "Ah Kh", "--trick", "Ah", "-t", "h"), None, "hand: card Ah is already"),
        (("legal", "Ah 9h", "--trick", "Kh", "-t", "h"), None, "hand[1]: card '9h'"),
        (("play", "-"), None, "plays[4]: seat 1 may not play Ad"),
        (("play", "-"), "dup", "hands[2][2]: duplicate card 'Ah' (also hands[0][0])"),
        (("odds", "Ad Kd Qd", "-t", "d", "-k", "4"), None, "opponents"),
        (("odds", "Ad Kd Qd", "-t", "d", "--turned", "Ad"), None, "turned: card Ad"),
        (("advise", "-"), "advise", "hand: card Kd is both held and seen"),
        (("deal", "--seed", "1", "-n", "7"), None, "--players: 7 is not in the range 2<=x<=4"),
        (("bid", "check", "call", "-n", "2"), None, "actions[1].action: seat 0 cannot call"),
        (("bid", "check", "bet", "-n", "2"), None, "actions[1].action: unknown action 'bet'"),
        (("showdown", "-t", "h", "Ah Kh Qh", "Ah Ks Qs"), None, "hands[1][0]"),
    ],
)
def test_chlust_bad_input_exits_2_the_same_remote(
    server: str, args: tuple[str, ...], stdin: str | None, needle: str
) -> None:
    """CH-8 (an illegal play names plays[k]), CH-6 (an illegal action names actions[k]) and
    bad cards: exit 2 and the same line against the server as in-process."""
    text = {
        None: None,
        "dup": json.dumps(dict(CH_E11, hands=["Ah Td Kc", "Kh Ad Js", "Qh Jd Ah"])),
        "advise": json.dumps(dict(POSITION, hand="Qd Kd")),
    }.get(stdin, stdin)
    if args == ("play", "-") and stdin is None:
        text = json.dumps(dict(CH_E11, plays=["Ah Kh Qh", "Kc Ad Tc", "Js Jd Td"]))
    assert needle in same_error(server, "chlust", *args, stdin=text)


def test_chlust_unreachable_server_exits_3() -> None:
    code, _, err = run("chlust", "deal", "--seed", "1", "--server", "127.0.0.1:1", "--timeout", "2")
    assert code == 3 and err.startswith("error: server unreachable")


def test_remote_chlust_methods_equal_the_local_ones(remote: RemoteSolver) -> None:
    """RemoteSolver's Chlust methods return the library's values (dataclass equality)."""
    local = LocalSolver()
    hands = CH_E11["hands"]
    played = (hands, "s", CH_E11["plays"])
    assert remote.chlust.play_deal(*played, turned="Qs") == local.chlust.play_deal(
        *played, turned="Qs"
    )
    folded = (["Ah Td Kc", None, "Qh Jd Tc"], "s", "Ah Qh Kc Tc Td Jd")
    assert remote.chlust.play_deal(*folded, folded=[1]) == local.chlust.play_deal(
        *folded, folded=[1]
    )
    assert remote.chlust.legal_cards("Kd Ad Ts", "h", trick="Qd") == parse_cards("Kd Ad")  # CH-E10
    for kwargs in ({}, {"opponents": 2, "samples": 300, "seed": 2, "exact_limit": 0}):
        assert remote.chlust.showdown_odds("Jd Td Tc", "d", **kwargs) == local.chlust.showdown_odds(
            "Jd Td Tc", "d", **kwargs
        )
    trick = Trick.of(Suit.SPADES, 0, parse_cards("Qh Ah"), seats=[0, 1])
    args = ("Ad Kh Ts", trick)
    kwargs = {"seat": 2, "seats": [0, 1, 2, 3], "samples": 30, "seed": 1}
    assert remote.chlust.advise(*args, **kwargs) == local.chlust.advise(*args, **kwargs)  # type: ignore[arg-type]
    assert remote.chlust.deal(11, "nines", players=3, dealer=1) == local.chlust.deal(
        11, "nines", players=3, dealer=1
    )
    actions = ["raise", "raise", "call", "fold"]
    assert remote.chlust.bid(actions, 3, max_raises=3) == local.chlust.bid(actions, 3, max_raises=3)
    with pytest.raises(InvalidInputError) as caught:
        remote.chlust.bid(["check", "call"], 2)
    assert caught.value.field == "actions[1].action"


# --- Three Leaves (RULES.md §4) ----------------------------------------------------------------

TL_E6 = {
    "hands": ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"],
    "trump_card": "9d",
    "plays": "As Ks Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Jc",
}
TL_E1 = {
    "hands": ["9h Jc Qd", "As Ks 8s", "Th Jd 9c", "Qh Kc 8d"],
    "trump_card": "Js",
    "picks": ["As", "Ks", "8s"],
}
TL_E7 = {"hands": ["Ah Kh 8h", "Qh Jh 9d", "Th Ks 8c", "9h Kd Ac"], "trump_card": "Qs"}
PLAYOUT = dict(TL_E7, demand_playout=True, plays="Ah Qh Th 9h Kh Jh Ks ~Kd 8c Ac ~8h ~9d")
EXCHANGE = dict(  # seat 1 draws two cards, seat 2 passes (TL-3); seat 0 takes every trick
    TL_E6,
    stock="Js 9s Tc",
    exchanges={"1": "9h Jc", "2": "pass"},
    plays="As Ks Qs Kh ~9s ~8c 8d ~Js ~Ac",
)


def test_leaves_evaluate_and_legal_same_remote(server: str) -> None:
    """TL-E1: A♠K♠8♠ under spades is a trump khlyust of 11 + 4 + 8 = 23 points; TL-5: void in
    the led ♠, 8♦ (a trump) heads the trick face up, any card may go face down."""
    data = same_both_ways(server, "leaves", "evaluate", "As Ks 8s", "--trump", "s")
    assert (data["class"], data["points"], data["key"]) == ("trump_khlyust", 23, [3, 23, 14, 0])
    same_both_ways(
        server, "leaves", "evaluate", "7h 8h 9h", "--trump", "c", "--set", "deck=32",
        "--position", "2",
    )  # fmt: skip
    legal = same_both_ways(server, "leaves", "legal", "8d Ac Kh", "--trump", "d", "--trick", "As")
    rows = {(p["card"], p["face_down"], p["heads_trick"]) for p in legal["plays"]}  # type: ignore[attr-defined]
    assert rows == {
        ("8d", False, True),
        ("8d", True, False),
        ("Ac", True, False),
        ("Kh", True, False),
    }
    same_both_ways(
        server, "leaves", "legal", "8d Ac Kh", "--trump", "d", "--trick", "As ~8c", "--set",
        "void=must_trump",
    )  # fmt: skip
    same_both_ways(server, "leaves", "legal", "8d Ac Kh", "--trump", "d")


def test_leaves_resolve_and_play_same_remote(server: str) -> None:
    """TL-E7 (a plain khlyust, challenged: a play-out), TL-E6 (tricks, TL-6 shares), a session
    carrying the pot into TL-E1's trump khlyust and payment round, and an exchange (TL-3)."""
    resolved = same_both_ways(server, "leaves", "resolve", json.dumps(TL_E7))
    assert resolved["winner"] == 0 and resolved["khlyusts"][0]["class"] == "plain_khlyust"  # type: ignore[index]
    assert same_both_ways(server, "leaves", "resolve", json.dumps(TL_E6))["winner"] is None
    e6 = same_both_ways(server, "leaves", "play", "-", "--set", "share=3", stdin=json.dumps(TL_E6))
    assert e6["net"] == [-1, -4, 5, -4]
    session = same_both_ways(server, "leaves", "play", json.dumps({"deals": [TL_E6, TL_E1]}))
    assert session["pot"] == 0 and sum(session["totals"]) == 0  # type: ignore[arg-type]
    assert same_both_ways(server, "leaves", "play", json.dumps(PLAYOUT))["outcome"] == "playout"
    drawn = same_both_ways(server, "leaves", "play", json.dumps(EXCHANGE))
    assert drawn["exchanges"] == {"1": "draw 2 (discard 9h Jc)", "2": "pass"}
    assert drawn["hands_played"][1] == ["Ks", "Js", "9s"]  # type: ignore[index]
    local = run("leaves", "play", "-", stdin=json.dumps(TL_E6), real=True)
    remote = run("leaves", "play", "-", "--server", server, stdin=json.dumps(TL_E6), real=True)
    assert local[0] == 0 and remote == local


def test_leaves_advise_same_remote(server: str) -> None:
    """Exact khlyust odds, seeded trick and exchange odds: every --what, the same either way."""
    base = ("leaves", "advise", "8s 9h Jc", "--trump", "9d", "--samples", "30", "--seed", "4")
    full = same_both_ways(server, *base)
    assert set(full) == {"odds", "tricks", "exchange"} and len(full["exchange"]) == 9  # type: ignore[arg-type]
    assert set(same_both_ways(server, *base, "--what", "odds")) == {"odds"}
    assert set(same_both_ways(server, *base, "--what", "tricks")) == {"tricks"}
    assert set(same_both_ways(server, *base, "--what", "exchange", "--carried-pot", "4")) == {
        "exchange"
    }
    exact = same_both_ways(
        server, "leaves", "advise", "Ad Kd Qd", "--trump", "9d", "--rules", "two_players",
        "--position", "0",
    )  # fmt: skip
    assert exact["tricks"]["method"] == "exact" and exact["tricks"]["seed"] is None  # type: ignore[index]


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (("evaluate", "As Ks 6s", "--trump", "s"), None, "cards[2]: card '6s' is not in"),
        (("legal", "8d Ac Kh", "--trump", "d", "--trick", "Ac"), None, "trick[0]: Ac is in"),
        (("play", "-"), json.dumps({**TL_E6, "plays": "As Jc Ts Qs"}), "plays[1]"),
        (("resolve", "-"), json.dumps({"hands": ["As Kh 8d"]}), "trump_card: is required"),
        (
            ("advise", "8s 9h Jc", "--trump", "9d", "--what", "exchange", "--position", "0"),
            None,
            "must play the cards dealt (TL-3)",
        ),
        (
            ("advise", "8s 9h Jc", "--trump", "9d", "--position", "3", "--set", "players=3"),
            None,
            "position",
        ),
    ],
)
def test_leaves_bad_input_exits_2_the_same_remote(
    server: str, args: tuple[str, ...], stdin: str | None, needle: str
) -> None:
    """TL-5 (an illegal play names plays[k] and the rule), TL-3, bad cards and positions: exit
    2 and the same line against the server as in-process."""
    assert needle in same_error(server, "leaves", *args, stdin=stdin)


def test_remote_leaves_methods_equal_the_local_ones(remote: RemoteSolver) -> None:
    """RemoteSolver's Three Leaves methods return the library's values (dataclass equality)."""
    from cpsolver.three_leaves import Choices, Deal, leaf_trick

    local = LocalSolver()
    assert remote.leaves.evaluate("As Ks 8s", "s") == local.leaves.evaluate("As Ks 8s", "s")
    hand, trick = leaf_trick("8d Ac Kh", "d", "As ~8c")
    assert remote.leaves.legal_plays(hand, trick) == local.leaves.legal_plays(hand, trick)
    for spec in (TL_E6, TL_E7, PLAYOUT, EXCHANGE, TL_E1):
        deal = Deal.of(spec["hands"], spec["trump_card"], spec.get("stock", ()))  # type: ignore[arg-type]
        choices = Choices.of(
            exchanges=spec.get("exchanges"),  # type: ignore[arg-type]
            demand_playout=bool(spec.get("demand_playout")),
            picks=spec.get("picks"),  # type: ignore[arg-type]
            plays=spec.get("plays", ()),  # type: ignore[arg-type]
            rules=deal.rules,
        )
        assert remote.leaves.resolve(deal) == local.leaves.resolve(deal)
        assert remote.leaves.play_deal(deal, choices, carried_pot=2) == local.leaves.play_deal(
            deal, choices, carried_pot=2
        )
    kwargs = {"samples": 20, "seed": 3, "exchange": True}
    assert remote.leaves.advise("8s 9h Jc", "9d", **kwargs) == local.leaves.advise(  # type: ignore[arg-type]
        "8s 9h Jc", "9d", **kwargs
    )


def test_leaves_empty_picks_are_random_picks_both_ways(server: str, remote: RemoteSolver) -> None:
    """TL-4 payment round (TL-E1's trump khlyust, draw_source=holder): ``"picks": []`` means no
    picks given, so the opponents pick at random with the seed - the same in-process and with
    --server (the wire cannot tell an empty list from an absent one), and the same as leaving
    picks out."""
    from cpsolver.three_leaves import Choices, Deal

    no_picks = {k: v for k, v in TL_E1.items() if k != "picks"}
    for seed in (0, 5):
        spec = dict(no_picks, seed=seed)
        empty = same_both_ways(server, "leaves", "play", json.dumps(dict(spec, picks=[])))
        absent = same_both_ways(server, "leaves", "play", json.dumps(spec))
        assert empty == absent
        # the opponents paid for three distinct cards of A♠ K♠ 8♠ (11, 4 and 8 points)
        assert sorted(p["amount"] for p in empty["payments"]) == [4, 8, 11]  # type: ignore[union-attr]
    deal = Deal.of(TL_E1["hands"], TL_E1["trump_card"])  # type: ignore[arg-type]
    local = LocalSolver()
    for choices in (Choices(picks=(), seed=5), Choices.of(picks=[], seed=5)):
        assert remote.leaves.play_deal(deal, choices) == local.leaves.play_deal(deal, choices)
        random = Choices(seed=5)
        assert local.leaves.play_deal(deal, choices) == local.leaves.play_deal(deal, random)

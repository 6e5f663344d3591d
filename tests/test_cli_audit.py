"""CLI defects an audit of the commands found (each item of its list has its tests here), run
in-process the way a user meets them: bad input is one ``error: FIELD: REASON`` line on stderr
and exit code 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from helpers import run_cli

from cpsolver.client import connect
from cpsolver.client.cli import main
from cpsolver.client.cli.options import SEED
from cpsolver.errors import InvalidInputError
from cpsolver.ofc.advice import DEFAULT_FANTASYLAND_VALUE

TABLE = {  # RULES CP-E7, as docs/RULE-FILES.md scores it
    "players": {
        "F": {"front": "Ks Kd 2h", "middle": "Qs Qh 5c 4c 3d", "back": "As Ad Ac 9s 9d"},
        "V": {"front": "Jh Jc 6s", "middle": "Th Tc Td 8h 8c", "back": "7s 7h 7d 7c 3s"},
    }
}
ROWS = {"back": "As Ks Qs Js Ts", "middle": "9h 9d 9c 2h 2d", "front": "7c 5d 3s"}
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
OFC_TABLE = {
    "players": {
        "A": {"back": "As Ad Ac 9s 9d", "middle": "Ks Kd 4c 4d 2h", "front": "Qs Qh 3h"},
        "B": {"back": "Ts 9h 8c 7d 6s", "middle": "Jh Jd 5c 5d 2s", "front": "Th Td 3c"},
    }
}


def _one_line_error(code: int, err: str) -> str:
    """The one error line of a refused command (exit 2, nothing else on stderr)."""
    assert code == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith("error: "), err
    return err.removesuffix("\n")


# 1. --set players=N reached the client's score() beside its positional players.


def test_score_takes_players_as_a_rule_option_like_a_rule_file(tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps(TABLE), encoding="utf-8")
    rule_file = tmp_path / "two.toml"
    rule_file.write_text("players = 2\n", encoding="utf-8")
    by_set = run_cli(["score", str(table), "--set", "players=2", "--json"])
    by_file = run_cli(["score", str(table), "--rules", str(rule_file), "--json"])
    assert by_set[0] == 0, by_set[2]
    assert json.loads(by_set[1])["rules"]["players"] == 2
    assert json.loads(by_set[1])["totals"] == json.loads(by_file[1])["totals"]


def test_ofc_score_takes_players_as_a_rule_option(tmp_path: Path) -> None:
    table = tmp_path / "o.json"
    table.write_text(json.dumps(OFC_TABLE), encoding="utf-8")
    code, out, err = run_cli(["ofc", "score", str(table), "--set", "players=2", "--json"])
    assert code == 0, err
    assert json.loads(out)["rules"]["players"] == 2


# 2. train --seed took any int: -1 reached numpy's seeding, a ValueError traceback.


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found.extend(_commands(command, (*path, name)))
        else:
            found.append((" ".join((*path, name)), command))
    return found


def test_every_seed_option_has_the_one_seed_range() -> None:
    seeds = [
        (name, param)
        for name, command in _commands(main)
        for param in command.params
        if isinstance(param, click.Option) and "--seed" in param.opts
    ]
    assert len(seeds) >= 10
    for name, param in seeds:
        assert param.type is SEED, name


def test_train_refuses_a_negative_seed_as_bad_input(tmp_path: Path) -> None:
    code, _, err = run_cli(
        ["train", "--seed", "-1", "--deals", "1", "--iterations", "1", "--workers", "1",
         "--out", str(tmp_path)]
    )  # fmt: skip
    assert _one_line_error(code, err) == (
        "error: --seed: -1 is not in the range 0<=x<=18446744073709551615"
    )
    assert not list(tmp_path.iterdir())


# 8. A file that cannot be read: batch and review said "file: cannot read 'x': ...", score
# "input: x: no such file"; an empty path was read as the current directory.


def test_a_missing_file_is_one_wording_at_input_for_every_command(tmp_path: Path) -> None:
    missing = str(tmp_path / "nofile")
    for args in (["batch", missing], ["review", missing], ["score", missing],
                 ["ofc", "score", missing], ["chlust", "play", missing],
                 ["leaves", "resolve", missing]):  # fmt: skip
        line = _one_line_error(*run_cli(args)[::2])
        assert line.startswith(f"error: input: {missing}: no such file"), (args, line)


def test_an_empty_path_is_named_as_such() -> None:
    for args in (["chlust", "play", ""], ["score", ""], ["batch", ""], ["review", ""]):
        line = _one_line_error(*run_cli(args)[::2])
        assert line.startswith("error: input: '': an empty path"), (args, line)
        assert "directory" not in line


def test_a_directory_is_not_readable_input(tmp_path: Path) -> None:
    line = _one_line_error(*run_cli(["batch", str(tmp_path)])[::2])
    assert line == f"error: input: {tmp_path}: cannot read: Is a directory"


# 10. A UTF-8 byte order mark (Windows Notepad) made the first line unreadable.

BOM = "\ufeff"


def test_a_byte_order_mark_is_not_part_of_the_input(tmp_path: Path) -> None:
    code, out, err = run_cli(["score", "-", "--json"], stdin=BOM + json.dumps(TABLE))
    assert code == 0, err
    assert json.loads(out)["totals"] == {"F": -7, "V": 7}
    path = tmp_path / "table.json"
    path.write_bytes((BOM + json.dumps(TABLE)).encode("utf-8"))
    assert run_cli(["score", str(path), "--json"])[1] == out

    code, out, err = run_cli(["batch", "--objective", "strength"], stdin=f"{BOM}{HAND}\n")
    assert code == 0, err
    assert json.loads(out)["ok"] is True

    history = BOM + json.dumps(ROWS) + "\n"
    code, out, err = run_cli(["review", "-", "--json"], stdin=history)
    assert code == 0, err
    assert json.loads(out)["overall"]["hands"] == 1


# 3. review's text report never said why a line was bad (only --json had the reasons).


def test_review_says_why_each_bad_line_is_bad_on_stderr() -> None:
    bad = json.dumps({"player": 5, **ROWS})
    history = f"{json.dumps(ROWS)}\n{bad}\n# comment\n{{oops\n"
    code, out, err = run_cli(["review", "-"], stdin=history)
    assert code == 2
    assert err.splitlines() == [
        "line 2: player: expected text, got int",
        "line 4: input: stdin: not valid JSON at line 4 column 2: Expecting property name "
        "enclosed in double quotes",
        "review: 1 of 3 hands rated; 2 bad lines (2, 4)",
    ]
    assert "EV lost by player" in out


def test_review_lists_the_reasons_of_as_many_bad_lines_as_their_numbers() -> None:
    bad = json.dumps({"player": 5, **ROWS})
    code, _, err = run_cli(["review", "-"], stdin=f"{bad}\n" * 25)
    assert code == 2
    *reasons, summary = err.splitlines()
    assert reasons == [f"line {n}: player: expected text, got int" for n in range(1, 21)]
    assert summary.endswith("25 bad lines (" + ", ".join(map(str, range(1, 21))) + ", ...)")


# 4. review read any first line that is not JSON as a CSV header, and rated no hands: exit 0.


def test_review_refuses_input_that_is_not_a_history() -> None:
    for text, named in ((f"{HAND}\n", repr(HAND)), ("hello world\n", "'hello world'"),
                        ("player,back,middle,front,back\n", "'back' named twice")):  # fmt: skip
        line = _one_line_error(*run_cli(["review", "-"], stdin=text)[::2])
        assert line.startswith("error: input: stdin: line 1 is not a hand history's CSV"), line
        assert named in line


def test_review_of_no_hands_is_bad_input() -> None:
    for text in ("", "\n# only a comment\n", "player,back,middle,front\n"):
        line = _one_line_error(*run_cli(["review", "-"], stdin=text)[::2])
        assert line == "error: input: stdin: no hands in the input"


def test_review_still_reads_a_csv_history() -> None:
    history = "id,player,back,middle,front\n7,ann," + ",".join(ROWS.values()) + "\n"
    code, out, err = run_cli(["review", "-", "--json"], stdin=history)
    assert code == 0, err
    assert json.loads(out)["hands"][0]["player"] == "ann"


# 5. --arrangements did nothing in review and showed only in rate's --json.


def test_rate_shows_the_arrangements_asked_for_in_text_as_solve_does() -> None:
    rows = ["Ah Kd 9s 9c 2s", "7h 7d 5c 4s Jc", "3h 3d Td"]
    args = ["rate", *rows, "--estimator", "model"]
    code, out, err = run_cli([*args, "--arrangements", "3"])
    assert code == 0, err
    shown = out.split("alternatives:\n", 1)[1].splitlines()
    assert shown[0].split() == ["#", "back", "middle", "front", "ev", "gap"]
    assert [line.split()[0] for line in shown[1:3]] == ["1", "2"]
    rating = json.loads(run_cli([*args, "--arrangements", "3", "--json"])[1])
    assert len(rating["solution"]["alternatives"]) == 2
    assert "alternatives:" not in run_cli(args)[1]


def test_review_has_no_arrangements_option_to_show_but_still_accepts_it() -> None:
    code, out, _ = run_cli(["review", "--help"])
    assert code == 0 and "--arrangements" not in out
    history = json.dumps(ROWS) + "\n"
    code, out, err = run_cli(["review", "-", "--arrangements", "3", "--json"], stdin=history)
    assert code == 0
    assert "'arrangements' is deprecated" in err and "shows no other arrangements" in err
    assert json.loads(out)["overall"]["hands"] == 1


# 6. batch solved hands under an estimate its objective cannot have; solve refuses it.


def test_batch_refuses_an_estimate_the_objective_cannot_have_as_solve_does() -> None:
    for estimator in ("rollouts:50", "calibrated"):
        options = ["--objective", "strength", "--estimator", estimator]
        code, out, err = run_cli(["batch", *options], stdin=f"{HAND}\n")
        solved = run_cli(["solve", HAND, *options])
        assert out == "" and _one_line_error(code, err) == _one_line_error(solved[0], solved[2])
        assert err.startswith(f"error: estimator: {estimator} needs the ev objective")
    # What solve takes, batch takes: a budget, the model, the default.
    for options in (["--estimator", "model"], ["--estimator", "budget:10ms"], []):
        code, out, err = run_cli(["batch", "--objective", "strength", *options], stdin=HAND)
        assert code == 0 and json.loads(out)["ok"], (options, err)


# 7. chlust deal -n 0 dealt the rules' four seats (the client passed `players or None`).


def test_a_chlust_deal_of_zero_players_is_refused_not_the_rules_count() -> None:
    # In-process, and remote: the remote client checks before it calls (no server here).
    for address in (None, "127.0.0.1:9"):
        with connect(address) as solver, pytest.raises(InvalidInputError) as refused:
            solver.chlust.deal(1, players=0)
        assert str(refused.value) == "players: must be 2, 3 or 4 (CH-1), got 0"
    with connect(None) as solver:
        assert len(solver.chlust.deal(1).hands) == 4  # None is still the rules' count
    line = _one_line_error(*run_cli(["chlust", "deal", "--seed", "1", "-n", "0"])[::2])
    assert "players" in line and "0" in line


# 9. click's usage errors were three lines (Usage:, Try ..., Error: Invalid value ...), where
# every other error is the documented one line.


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["solve", HAND, "--seed", "-1"],
         "error: --seed: -1 is not in the range 0<=x<=18446744073709551615"),
        (["solve", HAND, "--estimator", "foo"], "error: --estimator: unknown estimator 'foo'"),
        (["solve", HAND, "--arrangements", "0"],
         "error: --arrangements: 0 is not in the range 1<=x<=101"),
        (["batch", "--on-error", "bogus"],
         "error: --on-error: 'bogus' is not one of 'skip', 'stop'"),
        (["batch", "--on-error"], "error: --on-error: requires an argument"),
        (["solve", HAND, "--sed", "1"], "error: --sed: no such option; did you mean --seed"),
        # In-process the root is named after its function; installed, 'cpsolver ... --help'.
        (["--bogus"], "error: --bogus: no such option (see 'main --help')"),
        (["chlust", "bogus"], "error: bogus: no such command (see 'main chlust --help')"),
        (["solve"], "error: CARDS: missing"),
        (["chlust", "showdown", "As Ks Qs"], "error: --trump: missing"),
        (["rate", "As Ks Qs Js Ts", "9h 9d 9c 2h 2d"],
         "error: usage: give the rows as three quoted arguments BACK MIDDLE FRONT (got 2)"),
        (["solve", HAND, "--pin", "Ks"],
         "error: --pin: expected CARD=ROW, e.g. As=front; got 'Ks'"),
        (["solve", HAND, "--min", "front"],
         "error: --min: expected ROW=HAND, e.g. front=pair; got 'front'"),
    ],
)  # fmt: skip
def test_a_usage_error_is_one_line_naming_the_option(args: list[str], line: str) -> None:
    code, out, err = run_cli(args)
    assert out == ""
    assert _one_line_error(code, err).startswith(line)


def test_a_bad_value_from_the_environment_names_the_variable() -> None:
    code, _, err = run_cli(["solve", HAND, "--server", "x:1", "--tls-ca", "/nonexistent"])
    assert _one_line_error(code, err).startswith("error: --tls-ca: ")
    code, _, err = run_cli(["solve", HAND], env={"CPSOLVER_TLS_CA": "/nonexistent"})
    line = _one_line_error(code, err)
    assert line.startswith("error: --tls-ca: ") and line.endswith("(env var: 'CPSOLVER_TLS_CA')")


def test_a_group_named_without_a_command_still_shows_its_help() -> None:
    code, out, err = run_cli(["chlust"])
    assert code == 2 and "Commands:" in out + err and "error:" not in out + err


# 12. leaves legal printed plain cards (8d, ~Ac) where every other text output uses symbols.


def test_leaves_legal_shows_cards_with_suit_symbols() -> None:
    args = ["leaves", "legal", "8d Ac Kh", "--trump", "d", "--trick", "As"]
    code, out, err = run_cli(args)
    assert code == 0, err
    assert out.splitlines() == ["8♦  (takes the lead)", "~8♦", "~A♣", "~K♥"]
    plays = json.loads(run_cli([*args, "--json"])[1])["plays"]
    assert [p["card"] for p in plays] == ["8d", "8d", "Ac", "Kh"]  # JSON keeps the canonical


# 13. Help and defaults: fantasyland's V defaulted to 0 where advise's is 10; fantasyland took
# its cards as one argument only; the root's help left open-face out; chlust's -n, --dealer
# and -k showed no range.

FANTASY = "As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d"


def _help(*command: str) -> str:
    code, out, _ = run_cli([*command, "--help"])
    assert code == 0
    return " ".join(out.split())


def test_fantasyland_values_the_next_hand_as_advise_does_by_default() -> None:
    default = json.loads(run_cli(["ofc", "fantasyland", FANTASY, "--json"])[1])
    assert default["fantasyland_value"] == DEFAULT_FANTASYLAND_VALUE == 10
    assert "[default: 10]" in _help("ofc", "fantasyland")
    assert "[default: 10]" in _help("ofc", "advise")


def test_fantasyland_takes_the_cards_one_by_one_too() -> None:
    quoted = run_cli(["ofc", "fantasyland", FANTASY, "--json"])
    apart = run_cli(["ofc", "fantasyland", *FANTASY.split(), "--json"])
    assert quoted[0] == apart[0] == 0 and quoted[1] == apart[1]


def test_the_root_help_names_every_game() -> None:
    first = _help().split("Commands run in this process")[0]
    for game in ("Chinese poker", "open-face", "Chlust", "Three Leaves"):
        assert game in first


def test_chlust_player_counts_show_their_range() -> None:
    for command, ranges in ((("chlust", "deal"), ("2<=x<=4", "0<=x<=3")),
                            (("chlust", "bid"), ("2<=x<=4", "0<=x<=3")),
                            (("chlust", "odds"), ("1<=x<=3",))):  # fmt: skip
        text = _help(*command)
        for shown in ranges:
            assert shown in text, (command, shown)
    line = _one_line_error(*run_cli(["chlust", "odds", "Ad Kd Qd", "-t", "d", "-k", "4"])[::2])
    assert line == "error: --opponents: 4 is not in the range 1<=x<=3"

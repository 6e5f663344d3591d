"""Issue 28: rule files (TOML, RULES §2.5) on every surface: the library (``solve``, ``score``
with a path), ``cpsolver rules check/show/schema``, ``--rules FILE`` on the commands, and the
gRPC ``ChineseRules`` message (typed fields or ``rules_toml``) with the same validation.
"""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import jsonschema
import pytest
from helpers import run_cli, violations, wire

from cpsolver.cards import parse_cards
from cpsolver.chinese.naturals import detect_natural
from cpsolver.chinese.scoring import score
from cpsolver.chinese.solve import solve
from cpsolver.chinese.table_keys import table_key
from cpsolver.errors import RuleError
from cpsolver.evaluator.poker import Category
from cpsolver.rules import Row
from cpsolver.rules.chinese import ChineseRules
from cpsolver.rules.files import SCHEMA_FILE, read_rule_file, rule_file_schema, to_toml
from cpsolver.v1 import chinese_poker_pb2 as pb
from cpsolver.v1 import chinese_poker_pb2_grpc

# The issue's rule file, in exactly its shape.
ISSUE_FILE = """\
preset = "shisanshui"      # start from a preset, then override
players = 4
order = "weak"             # weak | strict
wheel = "lowest"           # lowest | second_highest
royalty_mode = "replace"   # replace | add
bonus_paid = "on_win"      # on_win | always
scoring = "scoop_double"   # per_row | scoop_double | two_four | scoop_bonus:N
sweep = "double"           # none | double
foul = "scooped"           # scooped | fixed:N
natural_ties = "push"      # push | difference
declare = "choice"         # choice | auto
naturals_scooped = false
[royalties]                # replaces the preset's table
front = { three_of_a_kind = 3 }
middle = { full_house = 2, four_of_a_kind = 8, straight_flush = 10 }
back = { four_of_a_kind = 4, straight_flush = 5 }
[[naturals]]               # highest first; `naturals = false` for none
natural = "clean_dragon"
units = 108
"""

# CP-E7's hands: F fouls. Under maubinh V collects 6 (CP-E14).
E7 = {
    "F": {"front": "Ks Kd 2h", "middle": "Qs Qh 5c 4c 3d", "back": "As Ad Ac 9s 9d"},
    "V": {"front": "Jh Jc 6s", "middle": "Th Tc Td 8h 8c", "back": "7s 7h 7d 7c 3s"},
}
HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"


@pytest.fixture
def issue_file(tmp_path: Path) -> Path:
    path = tmp_path / "my-table.toml"
    path.write_text(ISSUE_FILE, encoding="utf-8")
    return path


def test_the_issues_file_reads_as_written(issue_file: Path) -> None:
    rules = read_rule_file(issue_file)
    expected = ChineseRules.preset("shisanshui").to_dict(full=True)
    expected["naturals"] = [{"natural": "clean_dragon", "units": 108}]
    assert rules.to_dict(full=True) == expected
    # The clean dragon is the only natural: six pairs is none.
    assert rules.natural_units == (0, 108)


def test_library_takes_a_path_and_a_preset_name(issue_file: Path) -> None:
    by_path = solve(HAND, str(issue_file), "strength")
    assert by_path.rules == read_rule_file(issue_file)
    assert solve(HAND, issue_file, "strength").rules == by_path.rules  # a Path too
    assert solve(HAND, "maubinh", "strength").rules == ChineseRules.preset("maubinh")


def test_score_from_the_command_line_with_a_rule_file(tmp_path: Path) -> None:
    rule_file = tmp_path / "binh.toml"
    rule_file.write_text('preset = "maubinh"\n', encoding="utf-8")
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"players": E7}), encoding="utf-8")
    code, out, err = run_cli(["score", str(table), "--rules", str(rule_file), "--json"])
    assert code == 0, err
    assert json.loads(out)["totals"] == {"F": -6, "V": 6}
    code, out, err = run_cli(["score", str(table), "--rules", "maubinh", "--json",
                              "--set", "foul=fixed:4"])  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["totals"] == {"F": -4, "V": 4}


def test_rules_check_accepts_a_good_file(issue_file: Path) -> None:
    code, out, err = run_cli(["rules", "check", str(issue_file)])
    assert code == 0, err
    assert "naturals, royalties, scoring, sweep" in out


BAD_FILES = [
    ("players = 5", "rules.players", "5", "2 to 4"),
    ('order = "sideways"', "rules.order", "'sideways'", "weak, strict"),
    ('scoring = "scoop_bonus:x"', "rules.scoring", "'scoop_bonus:x'", "scoop_bonus:N"),
    ('foul = "fixed:-2"', "rules.foul", "'fixed:-2'", "fixed:N (N 0 to 10000)"),
    ('sweep = "triple"', "rules.sweep", "'triple'", "none, double"),
    ('bonus_paid = "never"', "rules.bonus_paid", "'never'", "on_win, always"),
    ("natural_ties = 3", "rules.natural_ties", "3", "push, difference"),
    ('declare = "maybe"', "rules.declare", "'maybe'", "choice, auto"),
    ('naturals_scooped = "perhaps"', "rules.naturals_scooped", "'perhaps'", "on, off"),
    ('colour = "red"', "rules.colour", "'colour'", "valid options: players"),
    ('preset = "vegas"', "rules.preset", "'vegas'", "valid presets: standard"),
    ('royalties = "western"', "rules.royalties", "'western'", "standard, eastern, none"),
    (
        "[royalties]\nfront = { straight = 2 }",
        "rules.royalties.front.straight",
        "'straight'",
        "valid hands: high_card, pair, three_of_a_kind",
    ),
    (
        "[royalties]\nmiddle = { full_house = -1 }",
        "rules.royalties.middle.full_house",
        "-1",
        "0 to 10000",
    ),
    ("[royalties]\nside = { pair = 1 }", "rules.royalties.side", "'side'", "front, middle, back"),
    (
        '[[naturals]]\nnatural = "dragonn"\nunits = 3',
        "rules.naturals[0].natural",
        "'dragonn'",
        "valid naturals: clean_dragon",
    ),
    (
        '[[naturals]]\nnatural = "dragon"\nunits = 1.5',
        "rules.naturals[0].units",
        "1.5",
        "0 to 10000",
    ),
    (
        '[[naturals]]\nnatural = "dragon"\nunits = 3\n[[naturals]]\nnatural = "dragon"\nunits = 2',
        "rules.naturals[1].natural",
        "dragon",
        "listed twice",
    ),
    ("players = ", "rules", "", "not a TOML rule file"),
]


@pytest.mark.parametrize(("text", "key", "value", "allowed"), BAD_FILES)
def test_every_bad_file_gets_one_line_naming_key_value_and_what_is_allowed(
    tmp_path: Path, text: str, key: str, value: str, allowed: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n", encoding="utf-8")
    code, out, err = run_cli(["rules", "check", str(path)])
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: {key}"), err
    assert value in lines[0] and allowed in lines[0], err
    # Every command reading --rules FILE says the same.
    code, _, err_solve = run_cli(["solve", HAND, "--rules", str(path), "--objective", "strength"])
    assert code == 2 and err_solve == err


def test_a_missing_rule_file_is_named(tmp_path: Path) -> None:
    code, _, err = run_cli(["rules", "check", str(tmp_path / "none.toml")])
    assert code == 2 and "none.toml" in err


@pytest.mark.parametrize("preset", ["standard", "eastern", "two_four", "shisanshui", "maubinh"])
def test_rules_show_prints_a_rule_file_that_reads_back(preset: str, tmp_path: Path) -> None:
    code, out, err = run_cli(["rules", "show", preset])
    assert code == 0, err
    path = tmp_path / "shown.toml"
    path.write_text(out, encoding="utf-8")
    assert read_rule_file(path) == ChineseRules.preset(preset)
    code, out, _ = run_cli(["rules", "show", preset, "--json"])
    assert json.loads(out) == ChineseRules.preset(preset).to_dict(full=True)


def test_rules_show_of_a_file_with_overrides(issue_file: Path) -> None:
    code, out, err = run_cli(["rules", "show", str(issue_file), "--set", "foul=fixed:3"])
    assert code == 0, err
    assert 'foul = "fixed:3"' in out.splitlines()
    assert "[[naturals]]" in out and "units = 108" in out


def test_the_shipped_schema_is_the_rule_sets_own_and_checks_files(issue_file: Path) -> None:
    import tomllib

    shipped = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert shipped == rule_file_schema()
    code, out, _ = run_cli(["rules", "schema"])
    assert code == 0 and json.loads(out) == shipped
    validator = jsonschema.Draft202012Validator(shipped)
    validator.validate(tomllib.loads(ISSUE_FILE))
    for preset in ChineseRules.PRESETS:
        validator.validate(tomllib.loads(to_toml(ChineseRules.preset(preset))))
    for text, key, _, allowed in BAD_FILES[:-1]:
        if "listed twice" in allowed or key == "rules.preset":  # the library's checks only
            continue
        assert list(validator.iter_errors(tomllib.loads(text))), text


# -- the same answers over gRPC ----------------------------------------------------------


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> chinese_poker_pb2_grpc.ChinesePokerServiceStub:
    return chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)


def test_solve_with_a_rule_file_is_equal_in_library_cli_and_grpc(
    issue_file: Path, stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub, server: str
) -> None:
    library = solve(HAND, str(issue_file), "strength")
    code, out, err = run_cli(
        ["solve", HAND, "--rules", str(issue_file), "--objective", "strength", "--json"]
    )
    assert code == 0, err
    local = json.loads(out)
    code, out, err = run_cli(
        ["solve", HAND, "--rules", str(issue_file), "--objective", "strength", "--json",
         "--server", server]
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["arrangement"] == local["arrangement"]
    assert local["arrangement"]["back"] == [str(c) for c in library.back]
    assert local["rules"] == library.rules.to_dict()
    request = pb.SolveRequest(
        cards=wire(HAND),
        rules=pb.ChineseRules(rules_toml=ISSUE_FILE),
        objective=pb.OBJECTIVE_STRENGTH,
    )
    response = stub.Solve(request)
    assert [str(c) for c in library.back] == local["arrangement"]["back"]
    assert len(response.arrangement.back) == 5
    assert response.value == pytest.approx(library.value)


VARIANT_FILE = 'preset = "shisanshui"\nscoring = "scoop_bonus:3"\nnatural_ties = "difference"\n'
"""A table's variant of a preset whose own key is not trained: the preset's key stands in."""


@pytest.mark.parametrize("which", ["shisanshui", "maubinh", "file", "variant"])
def test_the_default_ev_answers_equally_in_library_cli_and_grpc(
    which: str,
    issue_file: Path,
    tmp_path: Path,
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
    server: str,
) -> None:
    """Issue 28's done-when: the default objective under both presets and rule files, with
    the tables every surface names (docs/EV.md, "House rules"): the presets' own shipped keys
    (the issue's file has shisanshui's key), and for a variant whose key is not trained, the
    preset's key as a stand-in."""
    texts = {"file": ISSUE_FILE, "variant": VARIANT_FILE}
    name = which
    if which in texts:
        path = tmp_path / f"{which}.toml"
        path.write_text(texts[which], encoding="utf-8")
        name = str(path)
    library = solve(HAND, name, estimator="calibrated")
    assert library.tables is not None and library.tables.shipped
    own = table_key(ChineseRules.resolve(name))
    if which == "variant":
        assert library.tables.stand_in and library.tables.stand_in_for == own.fingerprint()
        shisanshui = table_key(ChineseRules.preset("shisanshui"))
        assert library.tables.key == shisanshui.fingerprint()
    else:
        assert not library.tables.stand_in and library.tables.key == own.fingerprint()
    answers = []
    for extra in ([], ["--server", server]):
        code, out, err = run_cli(
            ["solve", HAND, "--rules", name, "--estimator", "calibrated", "--json", *extra]
        )
        assert code == 0, err
        answers.append(json.loads(out))
    for answer in answers:
        assert answer["arrangement"]["back"] == [str(c) for c in library.back]
        assert answer["ev"] == pytest.approx(library.value, abs=1e-9)
        assert answer["tables"] == library.tables.to_dict()
    rules = (
        pb.ChineseRules(rules_toml=texts[which])
        if which in texts
        else pb.ChineseRules(preset=which)
    )
    response = stub.Solve(pb.SolveRequest(cards=wire(HAND), rules=rules, estimator="calibrated"))
    assert response.tables.stand_in_for == (library.tables.stand_in_for or "")  # proto3: ""
    assert response.tables.key == library.tables.key
    assert response.value == pytest.approx(library.value, abs=1e-9)
    assert list(response.arrangement.back) == wire(" ".join(str(c) for c in library.back))


def test_deal_takes_the_rule_set_its_players_and_marks_its_naturals(tmp_path: Path) -> None:
    """``deal --rules``: the rule set's players by default (``--players`` wins), and the seats
    holding a natural of its list marked (a one-colour hand is a natural of shisanshui only)."""
    table = tmp_path / "three.toml"
    table.write_text('preset = "shisanshui"\nplayers = 3\n')
    code, out, err = run_cli(["deal", "--seed", "1", "--rules", str(table), "--json"])
    assert code == 0, err
    dealt = json.loads(out)
    assert list(dealt["hands"]) == ["N", "E", "S"]
    code, out, err = run_cli(["deal", "--seed", "1", "--rules", "shisanshui", "--json"])
    assert code == 0, err
    dealt = json.loads(out)
    assert dealt["naturals"]["W"]["name"] == "three_flushes"
    assert dealt["naturals"]["W"]["units"] == 3 and dealt["naturals"]["W"]["rank"] == 14
    for seat, cards in dealt["hands"].items():  # the other seats hold none (detected here)
        held = detect_natural(parse_cards(" ".join(cards)), ChineseRules.preset("shisanshui"))
        assert (held is not None) == (seat in dealt["naturals"])
    code, out, err = run_cli(["deal", "--seed", "1", "--rules", "shisanshui"])
    assert code == 0, err
    assert "natural" in out and "three flushes (3)" in out
    code, out, err = run_cli(
        ["deal", "--seed", "1", "--rules", str(table), "--players", "2", "--json"]
    )
    assert code == 0, err
    assert list(json.loads(out)["hands"]) == ["N", "E"]
    code, out, err = run_cli(["deal", "--seed", "1", "--set", "players=9"])
    assert code == 2 and "players" in err


def test_describe_prints_tables_and_lists_as_text() -> None:
    text = ChineseRules.preset("shisanshui").describe()
    assert "{" not in text and "'" not in text
    assert "royalties=[front: three_of_a_kind 3; middle: full_house 2," in text
    assert "naturals=[clean_dragon 52, dragon 26, twelve_royals 24," in text


def test_grpc_scores_under_the_typed_vocabulary(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    players = [
        pb.TablePlayer(seat=seat, arrangement=pb.Arrangement(
            back=wire(rows["back"]), middle=wire(rows["middle"]), front=wire(rows["front"])))
        for seat, rows in E7.items()
    ]  # fmt: skip
    typed = pb.ChineseRules(foul=pb.ChineseRules.FOUL_FIXED, foul_units=6)
    reply = stub.ScoreTable(pb.ScoreTableRequest(players=players, rules=typed))
    assert {t.seat: t.units for t in reply.totals} == {"F": -6, "V": 6}
    as_file = pb.ChineseRules(rules_toml='preset = "maubinh"\n')
    reply = stub.ScoreTable(pb.ScoreTableRequest(players=players, rules=as_file))
    assert {t.seat: t.units for t in reply.totals} == {"F": -6, "V": 6}
    assert score(E7, "maubinh").net == (-6, 6)


@pytest.mark.parametrize(
    ("rules", "field", "says"),
    [
        (pb.ChineseRules(rules_toml='foul = "fixed:x"'), "rules.foul", "fixed:N"),
        # A text that is no rule file is the message's rules_toml field (was "rules").
        (pb.ChineseRules(rules_toml="players = "), "rules.rules_toml", "not a TOML rule file"),
        (pb.ChineseRules(rules_toml='preset = "maubinh"', players=2), "rules.players",
         "not both"),
        # The message's own fields, not the library's forms (rules.scoring, rules.royalties...)
        (pb.ChineseRules(scoring=pb.ChineseRules.SCORING_SCOOP_BONUS, scoop_bonus=-3),
         "rules.scoop_bonus", "scoop_bonus:N"),
        (pb.ChineseRules(foul=pb.ChineseRules.FOUL_FIXED, foul_units=20_000),
         "rules.foul_units", "fixed:N"),
        (pb.ChineseRules(natural_table=[pb.ChineseRules.NaturalEntry(natural=99, units=3)]),
         "rules.natural_table[0].natural", "unknown value 99"),
        (pb.ChineseRules(natural_table=[
            pb.ChineseRules.NaturalEntry(natural=pb.NATURAL_KIND_DRAGON, units=13),
            pb.ChineseRules.NaturalEntry(natural=pb.NATURAL_KIND_DRAGON, units=3)]),
         "rules.natural_table[1].natural", "listed twice"),
        (pb.ChineseRules(natural_table=[
            pb.ChineseRules.NaturalEntry(natural=pb.NATURAL_KIND_DRAGON, units=-1)]),
         "rules.natural_table[0].units", "0 to 10000"),
        (pb.ChineseRules(royalty_table=[pb.ChineseRules.RowBonus(
            row=pb.ROW_FRONT, hand="flush", units=2)]),
         "rules.royalty_table[0].hand", "valid hands"),
        (pb.ChineseRules(royalty_table=[pb.ChineseRules.RowBonus(hand="pair", units=2)]),
         "rules.royalty_table[0].row", "missing"),
        (pb.ChineseRules(royalty_table=[
            pb.ChineseRules.RowBonus(row=pb.ROW_BACK, hand="flush", units=2),
            pb.ChineseRules.RowBonus(row=pb.ROW_BACK, hand="four_of_a_kind", units=-2)]),
         "rules.royalty_table[1].units", ""),
        (pb.ChineseRules(royalty_table=[
            pb.ChineseRules.RowBonus(row=pb.ROW_BACK, hand="flush", units=2),
            pb.ChineseRules.RowBonus(row=pb.ROW_BACK, hand="flush", units=3)]),
         "rules.royalty_table[1].hand", "listed twice"),
    ],
)  # fmt: skip
def test_bad_rules_over_grpc_are_invalid_argument_naming_the_field(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
    rules: pb.ChineseRules,
    field: str,
    says: str,
) -> None:
    request = pb.SolveRequest(cards=wire(HAND), rules=rules, objective=pb.OBJECTIVE_STRENGTH)
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(request)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    found = violations(caught.value)
    assert field in found, found
    assert says in found[field]


ROYAL_HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
TABLES = {
    "back": "[royalties]\nback = { royal_flush = 50 }\n",
    "front": "[royalties]\nfront = { pair = 30 }\n",
}
SOLVE_IN_ORDER = """\
import sys
from cpsolver import solve
for path in sys.argv[1:]:
    print(path if path.endswith("shisanshui") else solve({hand!r}, path, estimator="model").ev)
"""


def _evs_in_one_process(*rules: str) -> list[str]:
    """``solve(...).ev`` under each of ``rules`` in turn, in a fresh process (an empty cache)."""
    import subprocess
    import sys

    script = SOLVE_IN_ORDER.format(hand=ROYAL_HAND)
    done = subprocess.run([sys.executable, "-c", script, *rules], capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    return done.stdout.split()


def test_each_rule_files_royalty_table_is_its_own_whatever_came_before(tmp_path: Path) -> None:
    """Every rule file's table is ``royalties=custom``: the row values were cached by that
    alone, so the first custom table a process saw (a server's warm-up: shisanshui's) priced
    every later one (the same -> wrong EV over gRPC). Each file's EV must not depend on what
    was solved before it."""
    paths = {}
    for name, text in TABLES.items():
        paths[name] = tmp_path / f"{name}.toml"
        paths[name].write_text(text)
    alone = {name: _evs_in_one_process(str(path))[0] for name, path in paths.items()}
    assert alone["back"] != alone["front"]
    after = _evs_in_one_process("shisanshui", str(paths["front"]), str(paths["back"]))
    assert after[1:] == [alone["front"], alone["back"]]


@pytest.mark.parametrize("rules", ["maubinh", "shisanshui", "front"])
def test_the_royalties_objective_under_a_table_of_its_own(rules: str, tmp_path: Path) -> None:
    """``objective="royalties"`` under a custom table (RULES 2.5: the presets' and a file's
    own) counts that table's units; it was refused ("royalties=custom goes with its own
    table"). With a front pair worth 30, the most royalties put a pair in front."""
    if rules == "front":
        path = tmp_path / "front.toml"
        path.write_text(TABLES["front"])
        rules = str(path)
    found = solve(ROYAL_HAND, rules, "royalties")
    resolved = found.rules
    units = {
        row: resolved.royalty(row, hand.category, royal=hand.is_royal)
        for row, hand in found.hands.items()
    }
    assert found.royalties == units and found.value == sum(units.values())
    if rules.endswith("front.toml"):
        assert found.hands[Row.FRONT].category is Category.PAIR and found.value >= 30
    standard = solve(ROYAL_HAND, objective="royalties")
    assert standard.hands[Row.FRONT].category is not Category.PAIR


# 10 KB, under the 16,384 characters a rules_toml may hold, and deeper than tomllib's
# recursive parser goes: a RecursionError (a traceback on the CLI, INTERNAL over gRPC).
DEEP_FILE = "a = " + "[" * 5000 + "]" * 5000


def test_a_rule_file_nested_too_deeply_is_an_input_error_on_every_surface(
    tmp_path: Path, stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub
) -> None:
    with pytest.raises(RuleError) as info:
        ChineseRules.from_toml(DEEP_FILE)
    assert str(info.value) == "rules: not a TOML rule file: nested too deeply"
    path = tmp_path / "deep.toml"
    path.write_text(DEEP_FILE + "\n", encoding="utf-8")
    for args in (["rules", "check", str(path)], ["solve", HAND, "--rules", str(path)]):
        code, out, err = run_cli(args)
        assert (code, out) == (2, ""), err
        assert err == "error: rules: not a TOML rule file: nested too deeply\n"
    request = pb.SolveRequest(
        cards=wire(HAND),
        rules=pb.ChineseRules(rules_toml=DEEP_FILE),
        objective=pb.OBJECTIVE_STRENGTH,
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(request)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert violations(caught.value) == {
        "rules.rules_toml": "not a TOML rule file: nested too deeply"
    }


def test_each_bad_part_of_a_table_entry_over_grpc_is_named_on_its_own_field(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    """An entry without a row was reported as rules.royalties.unspecified ("unknown row
    'unspecified'"), and a bad hand's message landed on units while the units' own problem was
    lost (the wire guessed which of the two was wrong)."""
    bonus, natural = pb.ChineseRules.RowBonus, pb.ChineseRules.NaturalEntry
    rules = pb.ChineseRules(
        royalty_table=[
            bonus(hand="HAND_CATEGORY_PAIR", units=-3),  # no row
            bonus(row=pb.ROW_BACK, hand="flush", units=2),
            bonus(row=9, hand="flush", units=20_000),
        ],
        natural_table=[natural(units=3), natural(natural=99, units=-1)],
    )
    request = pb.SolveRequest(cards=wire(HAND), rules=rules, objective=pb.OBJECTIVE_STRENGTH)
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(request)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    found = violations(caught.value)
    assert {field: says.split(";")[0] for field, says in found.items()} == {
        "rules.royalty_table[0].row": "missing row",
        "rules.royalty_table[0].hand": "unknown hand 'HAND_CATEGORY_PAIR'",
        "rules.royalty_table[0].units": "invalid value -3",
        "rules.royalty_table[2].row": "unknown value 9",
        "rules.royalty_table[2].units": "invalid value 20000",
        "rules.natural_table[0].natural": "missing natural",
        "rules.natural_table[1].natural": "unknown value 99",
        "rules.natural_table[1].units": "invalid value -1",
    }


def test_a_rule_file_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    """Windows Notepad starts a UTF-8 file with a byte-order mark; it read as a TOML
    statement ("not a TOML rule file: Invalid statement")."""
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + b'preset = "maubinh"\n')
    assert ChineseRules.from_file(path) == ChineseRules.preset("maubinh")

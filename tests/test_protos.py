"""The wire contract: generated code is fresh, and the rules message carries every option."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cpsolver.rules import ChineseRules
from cpsolver.rules.base import Choice
from cpsolver.v1 import chinese_poker_pb2
from cpsolver.wire.rules import rules_from_wire

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "protos" / "cpsolver" / "v1"
SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", "descriptors.binpb")


def test_generated_code_is_fresh(tmp_path: Path) -> None:
    """Regenerating with the installed grpcio-tools reproduces protos/cpsolver/v1 byte for byte."""
    subprocess.run(
        [sys.executable, str(ROOT / "protos" / "generate.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    fresh = {p.name: p.read_bytes() for p in (tmp_path / "cpsolver" / "v1").iterdir()}
    committed = {p.name: p.read_bytes() for p in GENERATED.iterdir() if p.name.endswith(SUFFIXES)}
    assert sorted(committed) == sorted(fresh), "run `make protos` and commit protos/cpsolver/v1"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"stale generated files {stale}: run `make protos` and commit them"


def test_chinese_rules_message_carries_every_option() -> None:
    """RULES §2: every ChineseRules option (and only those) has a wire field, plus `preset`,
    the data of the options written as data (§2.5) and `rules_toml` (a whole rule file)."""
    fields = {f.name for f in chinese_poker_pb2.ChineseRules.DESCRIPTOR.fields}
    assert fields == {
        "preset",
        "rules_toml",
        *ChineseRules.option_names(),
        *ChineseRules.DATA_FIELDS,
    }


CHOICE_OPTIONS = [
    n for n in ChineseRules.option_names() if isinstance(getattr(ChineseRules(), n), Choice)
]


@pytest.mark.parametrize("option", CHOICE_OPTIONS)
def test_every_wire_value_means_the_library_value(option: str) -> None:
    """Each enum value of the wire selects the library value of the same name, and all exist."""
    default = getattr(ChineseRules(), option)
    enum = chinese_poker_pb2.ChineseRules.DESCRIPTOR.fields_by_name[option].enum_type
    seen = set()
    for value in enum.values:
        if value.number == 0:
            continue
        message = chinese_poker_pb2.ChineseRules(**{option: value.number})
        if value.name == "ROYALTIES_CUSTOM":  # the value of a table (CP-12)
            message.royalty_table.add(row=chinese_poker_pb2.ROW_BACK, hand="flush", units=2)
        rules = rules_from_wire(message, ChineseRules)
        seen.add(getattr(rules, option))
        # scoop_bonus:N and fixed:N are SCORING_SCOOP_BONUS and FOUL_FIXED
        name = getattr(rules, option).value.split(":")[0]
        assert value.name.endswith("_" + name.upper())
    assert seen == set(type(default))


def test_scalar_options_and_presets_cross_the_wire() -> None:
    wire = chinese_poker_pb2.ChineseRules(preset="two_four", players=3, naturals=True)
    assert rules_from_wire(wire, ChineseRules) == ChineseRules.preset(
        "two_four", players=3, naturals=True
    )
    assert rules_from_wire(chinese_poker_pb2.ChineseRules(), ChineseRules) == ChineseRules()


@pytest.mark.parametrize("preset", ["shisanshui", "maubinh"])
def test_the_whole_vocabulary_crosses_the_wire(preset: str) -> None:
    from cpsolver.rules.files import to_toml
    from cpsolver.wire.rules import rules_to_wire

    rules = ChineseRules.preset(preset).replace(
        scoring="scoop_bonus:2", foul="fixed:5", bonus_paid="always", natural_ties="difference",
        naturals_scooped=True,
    )  # fmt: skip
    assert rules_from_wire(rules_to_wire(rules, chinese_poker_pb2.ChineseRules), ChineseRules) == (
        rules
    )
    as_file = chinese_poker_pb2.ChineseRules(rules_toml=to_toml(rules))
    assert rules_from_wire(as_file, ChineseRules) == rules

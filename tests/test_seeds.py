"""One seed range (cpsolver.seeds): every game's bound is the same constant and every seed
field on the wire carries all of it."""

from __future__ import annotations

import importlib

import pytest
from google.protobuf.descriptor import FieldDescriptor

from cpsolver import seeds
from cpsolver.chinese import rollouts
from cpsolver.errors import InvalidInputError
from cpsolver.rules.chinese import ChineseRules
from cpsolver.v1 import chinese_poker_pb2, chlust_pb2, three_leaves_pb2


def test_every_game_has_the_one_bound() -> None:
    assert seeds.MAX_SEED == 2**64 - 1
    for name in ("chinese.deal", "chlust.deal", "three_leaves.deal"):
        module = importlib.import_module(f"cpsolver.{name}")  # (the packages export a deal())
        assert module.MAX_SEED is seeds.MAX_SEED, module.__name__
    assert not hasattr(rollouts, "MAX_SEED") or rollouts.MAX_SEED is seeds.MAX_SEED
    assert "MAX_ROLLOUT_SEED" not in rollouts.__all__


def test_the_old_rollout_seed_constant_warns_and_is_the_one_bound() -> None:
    """MAX_ROLLOUT_SEED was a second constant for the same range; it stays one release, warning."""
    with pytest.warns(DeprecationWarning, match=r"cpsolver\.seeds\.MAX_SEED"):
        old = rollouts.MAX_ROLLOUT_SEED
    assert old is seeds.MAX_SEED
    with pytest.raises(AttributeError):
        _ = rollouts.NO_SUCH_NAME


def test_rollouts_check_their_seed_with_the_one_check() -> None:
    hand = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"
    with pytest.raises(InvalidInputError, match=rf"^seed: must be 0 to {seeds.MAX_SEED}, got -1"):
        rollouts.rollout(hand, ChineseRules(), n=1, seed=-1)
    with pytest.raises(InvalidInputError, match=r"^seed: expected a whole number"):
        rollouts.rollout(hand, ChineseRules(), n=1, seed=1.5)  # type: ignore[arg-type]


def _seed_fields() -> list[tuple[str, FieldDescriptor]]:
    found = []
    for module in (chinese_poker_pb2, chlust_pb2, three_leaves_pb2):
        for message in module.DESCRIPTOR.message_types_by_name.values():
            for f in message.fields:
                if f.name == "seed" or f.name.endswith("_seed"):
                    found.append((f"{message.full_name}.{f.name}", f))
    return found


def test_every_seed_field_on_the_wire_is_a_uint64() -> None:
    fields = _seed_fields()
    assert len(fields) >= 10  # Solve, DealTables (both ways), 5 in Chlust, 3 in Three Leaves
    wrong = [name for name, f in fields if f.type != FieldDescriptor.TYPE_UINT64]
    assert not wrong, wrong


@pytest.mark.parametrize("bad", [-1, seeds.MAX_SEED + 1, True, 1.5])
def test_a_seed_outside_the_range_is_refused_naming_the_field(bad: object) -> None:
    with pytest.raises(InvalidInputError) as info:
        seeds.check_seed(bad, ("deal", "seed"))  # type: ignore[arg-type]
    assert str(info.value).startswith("deal.seed: ")

"""Cards of the wrong type name the field and the type expected (issue 27, defect 7).

``cpsolver.solve(12345)`` used to raise a bare ``TypeError: 'int' object is not iterable``;
every public entry that takes cards now raises :class:`cpsolver.errors.CardTypeError` (a
:class:`~cpsolver.errors.CardError`, so the CLI exits 2 and the server answers
``INVALID_ARGUMENT``, and a :class:`TypeError`), naming the field.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import cpsolver
import cpsolver.chlust as chlust
import cpsolver.three_leaves as leaves
from cpsolver.cards import Card
from cpsolver.errors import CardError, CardTypeError, InvalidInputError

ENTRIES: list[tuple[str, Callable[[], object], tuple[str | int, ...]]] = [
    ("solve", lambda: cpsolver.solve(12345), ("cards",)),
    ("solve one Card", lambda: cpsolver.solve(Card.of("As")), ("cards",)),
    ("solve_many", lambda: cpsolver.solve_many(5), ("hands",)),
    (
        "solve_many item",
        lambda: cpsolver.solve_many(["As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", 7]),
        ("hands", 1),
    ),
    ("evaluate", lambda: cpsolver.evaluate(12345), ("cards",)),
    ("parse_cards", lambda: cpsolver.parse_cards(3.5), ("cards",)),
    ("detect_natural", lambda: cpsolver.detect_natural(12345), ("cards",)),  # type: ignore[arg-type]
    ("chlust.evaluate", lambda: chlust.evaluate(5, "d"), ("cards",)),
    ("chlust.showdown", lambda: chlust.showdown(5, "d"), ("hands",)),
    ("chlust.showdown_odds", lambda: chlust.showdown_odds(5, "d"), ("hand",)),
    ("leaves.evaluate", lambda: leaves.evaluate(5, "s"), ("cards",)),
    ("leaves.advise_hand", lambda: leaves.advise_hand(5, "9d"), ("hand",)),
]


@pytest.mark.parametrize(("name", "call", "field"), ENTRIES, ids=[e[0] for e in ENTRIES])
def test_cards_of_the_wrong_type_name_the_field_and_the_type(
    name: str, call: Callable[[], object], field: tuple[str | int, ...]
) -> None:
    with pytest.raises(CardTypeError) as info:
        call()
    err = info.value
    assert isinstance(err, TypeError) and isinstance(err, CardError)
    assert err.path == field, str(err)
    assert "expected" in err.description and "got " in err.description, str(err)


def test_score_names_the_field_and_the_type() -> None:
    with pytest.raises(InvalidInputError, match=r"^players: expected the players seat by seat"):
        cpsolver.score(5)  # type: ignore[arg-type]
    rows = {"back": 5, "middle": 6, "front": 7}
    with pytest.raises(
        InvalidInputError, match=r"players\[\d\]\.back: expected 5 cards .* got int"
    ):
        cpsolver.score([rows, rows])  # type: ignore[list-item]

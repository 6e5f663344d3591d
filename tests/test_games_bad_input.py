"""Bad input at the games' library entry points raises the project's precise errors (an
:class:`InvalidInputError` naming the field and why, ``INVALID_ARGUMENT`` over gRPC), never a
bare TypeError or AttributeError from inside, and an impossible state (a trick with more
cards than the table has players, a seat's exchange given twice) is refused, not answered.
Each case here was reproduced by the auditors against the library before its fix."""

from __future__ import annotations

import math

import pytest

import cpsolver
from cpsolver.budget import check_deadline
from cpsolver.cards import Card
from cpsolver.checks import finite_number, whole_number
from cpsolver.errors import CardError, CardTypeError, InvalidInputError

# --- the shared readers ------------------------------------------------------------------


@pytest.mark.parametrize("value", ["x", -1, math.nan, math.inf, -math.inf, True, [1]])
def test_a_deadline_is_a_finite_number_of_seconds(value: object) -> None:
    with pytest.raises(InvalidInputError) as err:
        check_deadline(value)
    assert err.value.field == "deadline"
    assert "expected a finite number >= 0" in str(err.value)


def test_a_deadline_may_be_none_zero_or_more() -> None:
    assert check_deadline(None) is None
    assert check_deadline(0) == 0.0 and check_deadline(1.5) == 1.5


RATED = {"back": "Jh Th 9c 8c 7d", "middle": "As Ad Kh Kd Qs", "front": "5s 4s 2h"}


@pytest.mark.parametrize("value", ["x", -1, math.nan])
def test_rate_refuses_a_deadline_that_is_no_time(value: object) -> None:
    """Unchecked, "x" failed in the rollouts as a bare TypeError and -1 or NaN were taken;
    the deadline's violation comes with the others (rate reports every one at once)."""
    with pytest.raises(InvalidInputError) as err:
        cpsolver.rate(RATED, estimator="rollouts:100", deadline=value, seed=-1)  # type: ignore[arg-type]
    assert [v.field for v in err.value.violations] == ["seed", "deadline"]


@pytest.mark.xfail(
    strict=True,
    reason="solve.py is the lead's: the one-line check_deadline call there is pending "
    "(remove this mark when it lands)",
)
@pytest.mark.parametrize("value", ["x", -1])
def test_solve_refuses_a_deadline_that_is_no_time(value: object) -> None:
    hand = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
    with pytest.raises(InvalidInputError) as err:
        cpsolver.solve(hand, estimator="rollouts:100", deadline=value)  # type: ignore[arg-type]
    assert err.value.field == "deadline"


def test_the_readers_name_the_field() -> None:
    with pytest.raises(InvalidInputError, match=r"^pot: expected a whole number, got 1.0$"):
        whole_number(1.0, "pot")
    with pytest.raises(InvalidInputError, match=r"^pot: must be 0 to 3, got 4$"):
        whole_number(4, "pot", low=0, high=3)
    with pytest.raises(InvalidInputError, match=r"^x: expected a finite number, got 'y'$"):
        finite_number("y", "x")


# --- cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 60, 1.5, ["As"]])
def test_card_of_a_value_that_is_not_text(value: object) -> None:
    with pytest.raises(CardTypeError) as err:
        Card.of(value)  # type: ignore[arg-type]
    assert err.value.field == "card"
    assert "expected one card as text" in str(err.value)


def test_card_from_a_rank_number_and_a_suit_letter() -> None:
    assert Card(14, "s") == Card.of("As")  # type: ignore[arg-type]
    assert Card("T", "♥") == Card.of("Th")  # type: ignore[arg-type]
    assert Card(14, "s").index == 51  # type: ignore[arg-type]


def test_card_of_values_naming_no_rank_and_no_suit() -> None:
    with pytest.raises(CardError) as err:
        Card(15, None)  # type: ignore[arg-type]
    assert [v.field for v in err.value.violations] == ["rank", "suit"]
    with pytest.raises(CardError, match="suit: unknown suit 'x'"):
        Card(14, "x")  # type: ignore[arg-type]

"""The Chinese poker rule set (RULES §2): every option, its default, presets, royalties.

>>> rules = ChineseRules.preset("two_four")
>>> rules.players, rules.scoring.value, rules.royalties.value, rules.naturals
(2, 'two_four', 'none', False)
>>> ChineseRules.preset("standard", order="strict").order
<Order.STRICT: 'strict'>
>>> ChineseRules.preset("standard", order="sideways")
Traceback (most recent call last):
...
cpsolver.errors.RuleError: rules.order: invalid value 'sideways'; valid values: weak, strict
"""

from __future__ import annotations

import dataclasses
import enum
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar

from cpsolver.errors import FieldViolation, RuleError
from cpsolver.evaluator.poker import Category
from cpsolver.rules.base import Choice, RuleSet, int_option

__all__ = [
    "CP11_NATURALS",
    "FRONT_HANDS",
    "MAX_UNITS",
    "BonusHand",
    "BonusPaid",
    "ChineseRules",
    "Declare",
    "Foul",
    "NaturalName",
    "NaturalTable",
    "NaturalTies",
    "Order",
    "Row",
    "Royalties",
    "RoyaltyMode",
    "RoyaltyTable",
    "Scoring",
    "Sweep",
    "Wheel",
    "table_dict",
]


class Row(enum.IntEnum):
    """The three rows, in the order they are compared (RULES CP-2)."""

    FRONT = 0
    MIDDLE = 1
    BACK = 2

    @property
    def size(self) -> int:
        """Cards in the row: 3 for the front, 5 otherwise."""
        return 3 if self is Row.FRONT else 5

    @property
    def label(self) -> str:
        """Lower-case name used in JSON and field paths."""
        return self.name.lower()


class Order(Choice):
    """CP-6: whether a back equal to the middle is valid (``weak``) or a foul (``strict``)."""

    WEAK = "weak"
    STRICT = "strict"


class Wheel(Choice):
    """CP-3: where A-2-3-4-5 ranks among straights."""

    LOWEST = "lowest"
    SECOND_HIGHEST = "second_highest"


class Royalties(Choice):
    """CP-8: the royalty schedule."""

    STANDARD = "standard"
    EASTERN = "eastern"
    NONE = "none"
    CUSTOM = "custom"  # a rule file's own [royalties] table (ChineseRules.royalty_table)


class RoyaltyMode(Choice):
    """CP-8: a royalty is the row's whole value (``replace``) or paid on top of 1 (``add``)."""

    REPLACE = "replace"
    ADD = "add"


class Scoring(Choice):
    """CP-9 / CP-13: per-pairing bonuses (``scoop_bonus:N`` carries its N in
    :attr:`ChineseRules.scoop_bonus`)."""

    PER_ROW = "per_row"
    SCOOP_DOUBLE = "scoop_double"
    TWO_FOUR = "two_four"
    SCOOP_BONUS = "scoop_bonus:N"


class BonusPaid(Choice):
    """CP-12: row bonuses paid only by a won row (``on_win``) or to their holder whatever the
    row's result (``always``, the Malayan rule)."""

    ON_WIN = "on_win"
    ALWAYS = "always"


class Sweep(Choice):
    """CP-13: whether scooping every other player at a table of 3 or 4 doubles once more."""

    NONE = "none"
    DOUBLE = "double"


class Foul(Choice):
    """CP-14: a fouled hand loses every row (``scooped``, CP-10) or pays a fixed N
    (``fixed:N``, N in :attr:`ChineseRules.foul_units`)."""

    SCOOPED = "scooped"
    FIXED = "fixed:N"


class NaturalTies(Choice):
    """CP-15: between two naturals the higher collects its own units (``push``) or its units
    minus the lower's (``difference``)."""

    PUSH = "push"
    DIFFERENCE = "difference"


class Declare(Choice):
    """CP-15: a natural is declared by the holder's choice, or always (``auto``)."""

    CHOICE = "choice"
    AUTO = "auto"


class BonusHand(Choice):
    """The hands a row-bonus table names (CP-12): CP-3's categories, the royal flush apart."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"


FRONT_HANDS = (BonusHand.HIGH_CARD, BonusHand.PAIR, BonusHand.THREE_OF_A_KIND)
"""The hands a front can hold (CP-4): the only ones its row of a bonus table may list."""


class NaturalName(enum.Enum):
    """The vocabulary of naturals (CP-15), in the order RULES lists them (the value is the
    name a rule file writes)."""

    CLEAN_DRAGON = "clean_dragon"
    DRAGON = "dragon"
    TWELVE_ROYALS = "twelve_royals"
    THREE_STRAIGHT_FLUSHES = "three_straight_flushes"
    THREE_QUADS = "three_quads"
    ALL_HIGH = "all_high"
    ALL_LOW = "all_low"
    ONE_COLOR = "one_color"
    TWELVE_ONE_COLOR = "twelve_one_color"
    TWO_FULL_HOUSES_TRIPS = "two_full_houses_trips"
    FOUR_TRIPS = "four_trips"
    FIVE_PAIRS_TRIPS = "five_pairs_trips"
    SIX_PAIRS = "six_pairs"
    THREE_STRAIGHTS = "three_straights"
    THREE_FLUSHES = "three_flushes"

    @property
    def title(self) -> str:
        """Human name (``clean dragon``)."""
        return str(self.value).replace("_", " ")

    @property
    def label(self) -> str:
        """snake_case name used in JSON (``clean_dragon``)."""
        return str(self.value)


MAX_UNITS = 10_000
"""The largest number of units a rule file may give a bonus, natural, scoop or foul."""

RoyaltyTable = tuple[tuple[Row, BonusHand, int], ...]
"""A row-bonus table (CP-12): ``(row, hand, units)`` entries in row then hand order."""

NaturalTable = tuple[tuple[NaturalName, int], ...]
"""A ranked list of naturals (CP-15): ``(natural, units)``, highest first."""

CP11_NATURALS: NaturalTable = (
    (NaturalName.DRAGON, 13),
    (NaturalName.THREE_FLUSHES, 3),
    (NaturalName.THREE_STRAIGHTS, 3),
    (NaturalName.SIX_PAIRS, 3),
)
"""``naturals=on``: CP-11's four, highest first, with their units."""


# CP-8's royalty schedules as row-bonus tables (CP-12): the royal flush listed apart where the
# schedule distinguishes it. One table per name, read by ChineseRules.royalty and nothing else.
_NAMED_TABLES: dict[Royalties, RoyaltyTable] = {
    Royalties.STANDARD: (
        (Row.FRONT, BonusHand.THREE_OF_A_KIND, 3),
        (Row.MIDDLE, BonusHand.FULL_HOUSE, 2),
        (Row.MIDDLE, BonusHand.FOUR_OF_A_KIND, 4),
        (Row.MIDDLE, BonusHand.STRAIGHT_FLUSH, 5),
        (Row.BACK, BonusHand.FOUR_OF_A_KIND, 4),
        (Row.BACK, BonusHand.STRAIGHT_FLUSH, 5),
    ),
    Royalties.EASTERN: (
        (Row.FRONT, BonusHand.THREE_OF_A_KIND, 3),
        (Row.MIDDLE, BonusHand.FULL_HOUSE, 2),
        (Row.MIDDLE, BonusHand.FOUR_OF_A_KIND, 8),
        (Row.MIDDLE, BonusHand.STRAIGHT_FLUSH, 10),
        (Row.MIDDLE, BonusHand.ROYAL_FLUSH, 14),
        (Row.BACK, BonusHand.FOUR_OF_A_KIND, 4),
        (Row.BACK, BonusHand.STRAIGHT_FLUSH, 5),
        (Row.BACK, BonusHand.ROYAL_FLUSH, 7),
    ),
    Royalties.NONE: (),
}
_HAND_ORDER = {hand: i for i, hand in enumerate(BonusHand)}
# CP-16: the row bonuses of both regional presets (eastern's values, no royal flush apart).
_REGIONAL_TABLE: RoyaltyTable = tuple(
    entry for entry in _NAMED_TABLES[Royalties.EASTERN] if entry[1] is not BonusHand.ROYAL_FLUSH
)
_SHISANSHUI_NATURALS: NaturalTable = (
    (NaturalName.CLEAN_DRAGON, 52),
    (NaturalName.DRAGON, 26),
    (NaturalName.TWELVE_ROYALS, 24),
    (NaturalName.THREE_STRAIGHT_FLUSHES, 22),
    (NaturalName.THREE_QUADS, 20),
    (NaturalName.ALL_HIGH, 15),
    (NaturalName.ALL_LOW, 12),
    (NaturalName.ONE_COLOR, 10),
    (NaturalName.TWO_FULL_HOUSES_TRIPS, 8),
    (NaturalName.FOUR_TRIPS, 6),
    (NaturalName.FIVE_PAIRS_TRIPS, 5),
    (NaturalName.SIX_PAIRS, 4),
    (NaturalName.THREE_STRAIGHTS, 3),
    (NaturalName.THREE_FLUSHES, 3),
)
_MAUBINH_NATURALS: NaturalTable = (
    (NaturalName.CLEAN_DRAGON, 24),
    (NaturalName.DRAGON, 12),
    (NaturalName.FIVE_PAIRS_TRIPS, 3),
    (NaturalName.SIX_PAIRS, 3),
    (NaturalName.THREE_FLUSHES, 3),
    (NaturalName.THREE_STRAIGHTS, 3),
)
_CATEGORY_HAND = {category: BonusHand[category.name] for category in Category}
# Names to members, built once: a rule set's tables are read whenever one is built.
_ROW_NAMES = {row.label: row for row in Row}
_HAND_NAMES = {hand.value: hand for hand in BonusHand}
_FRONT_HAND_NAMES = {hand.value: hand for hand in FRONT_HANDS}
_NATURAL_NAMES = {natural.value: natural for natural in NaturalName}
_ABSENT = object()  # a key an entry of a list of naturals does not have

# The options RULES §2.1-2.2 had before §2.5: always in ``to_dict`` (the 432 rule sets keep
# their form and their fingerprints, which name the trained table files).
_LEGACY = ("players", "order", "wheel", "royalties", "royalty_mode", "scoring", "naturals")


@dataclass(frozen=True, slots=True)
class ChineseRules(RuleSet):
    """Every option of RULES §2, defaults as marked **[default]** there.

    The options of §2.5 (CP-12..CP-17) take data as well as names: ``scoring="scoop_bonus:2"``,
    ``foul="fixed:6"``, ``royalties`` a table ``{row: {hand: units}}`` and ``naturals`` a
    ranked list ``[{"natural": name, "units": n}, ...]`` (highest first). Their data lives in
    ``scoop_bonus``, ``foul_units``, ``royalty_table`` and ``natural_table``, set through those
    forms only.

    >>> rules = ChineseRules.preset("maubinh")
    >>> rules.foul.value, rules.foul_units, rules.declare.value, rules.natural_units[:3]
    ('fixed:N', 6, 'auto', (0, 24, 12))
    >>> rules.to_dict()["foul"], rules.to_dict()["naturals"][0]
    ('fixed:6', {'natural': 'clean_dragon', 'units': 24})
    >>> ChineseRules().replace(scoring="scoop_bonus:3").to_dict()["scoring"]
    'scoop_bonus:3'
    >>> ChineseRules().replace(royalties={"back": {"royal_flush": 9}}).royalty(
    ...     Row.BACK, Category.STRAIGHT_FLUSH, royal=True)
    9
    >>> ChineseRules().replace(foul="fixed:x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.RuleError: rules.foul: invalid value 'fixed:x'; valid values: scooped, ...
    """

    GAME: ClassVar[str] = "chinese_poker"
    DATA_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"scoop_bonus", "foul_units", "royalty_table", "natural_table"}
    )
    PRESETS: ClassVar = MappingProxyType(
        {
            "standard": {},
            "two_four": {
                "players": 2,
                "scoring": Scoring.TWO_FOUR,
                "royalties": Royalties.NONE,
                "naturals": False,
            },
            "eastern": {"royalties": Royalties.EASTERN},
            "shisanshui": {
                "royalties": _REGIONAL_TABLE,
                "scoring": Scoring.SCOOP_DOUBLE,
                "sweep": Sweep.DOUBLE,
                "naturals": _SHISANSHUI_NATURALS,
            },
            "maubinh": {
                "royalties": _REGIONAL_TABLE,
                "scoring": Scoring.SCOOP_DOUBLE,
                "sweep": Sweep.DOUBLE,
                "foul": "fixed:6",
                "wheel": Wheel.SECOND_HIGHEST,
                "naturals": _MAUBINH_NATURALS,
                "declare": Declare.AUTO,
            },
        }
    )

    players: int = int_option(4, 2, 4, "CP-1: players at the table")
    order: Order = Order.WEAK
    wheel: Wheel = Wheel.LOWEST
    royalties: Royalties = Royalties.STANDARD
    royalty_mode: RoyaltyMode = RoyaltyMode.REPLACE
    scoring: Scoring = Scoring.PER_ROW
    naturals: bool = True
    bonus_paid: BonusPaid = BonusPaid.ON_WIN
    sweep: Sweep = Sweep.NONE
    foul: Foul = Foul.SCOOPED
    natural_ties: NaturalTies = NaturalTies.PUSH
    declare: Declare = Declare.CHOICE
    naturals_scooped: bool = False
    scoop_bonus: int = 0
    foul_units: int = 0
    royalty_table: RoyaltyTable | None = None
    natural_table: NaturalTable | None = None

    @classmethod
    def resolve(
        cls, rules: ChineseRules | str | os.PathLike[str] | None = None, /, **overrides: object
    ) -> ChineseRules:
        """Accept a rule set, a preset's name, a rule file's path (RULES §2.5,
        :mod:`cpsolver.rules.files`) or None (``standard``), then apply overrides.

        >>> ChineseRules.resolve("maubinh", players=2).players
        2
        """
        if rules is None or (isinstance(rules, str) and rules in cls.PRESETS):
            return cls.preset(rules or "standard", **overrides)
        if isinstance(rules, (str, os.PathLike)):
            found = cls.load(os.fspath(rules))
            return found.replace(**overrides) if overrides else found
        if not isinstance(rules, cls):
            raise RuleError("rules", f"expected a {cls.__name__}, a preset name or a rule file")
        return rules.replace(**overrides) if overrides else rules

    @classmethod
    def from_toml(cls, text: str, field: str = "rules") -> ChineseRules:
        """The rule set a rule file's text describes (RULES §2.5, docs/RULE-FILES.md): a
        ``preset`` to start from (``standard`` when absent), then options by name.

        >>> ChineseRules.from_toml('preset = "maubinh"\\nfoul = "fixed:4"').foul_units
        4
        >>> ChineseRules.from_toml("a = " + "[" * 5000 + "]" * 5000)
        Traceback (most recent call last):
        ...
        cpsolver.errors.RuleError: rules: not a TOML rule file: nested too deeply
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RuleError(field, f"not a TOML rule file: {exc}") from exc
        except RecursionError:
            # tomllib parses arrays and inline tables recursively: 'a = [[[...]]]' a few
            # hundred deep (well under a request's size limit) exhausts the stack; an input
            # error, not a crash (a traceback on the CLI, INTERNAL over gRPC).
            raise RuleError(field, "not a TOML rule file: nested too deeply") from None
        preset = data.pop("preset", "standard")
        if not isinstance(preset, str):
            raise RuleError(
                f"{field}.preset", f"invalid value {preset!r}; expected a preset's name"
            )
        return cls.preset(preset, **data)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> ChineseRules:
        """The rule set of the rule file at ``path``; an unreadable file is a
        :class:`RuleError` naming it."""
        try:
            # utf-8-sig: a byte-order mark (Windows Notepad writes one) is not a TOML statement
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise RuleError("rules", f"cannot read the rule file {str(path)!r}: {exc}") from exc
        return cls.from_toml(text)

    @classmethod
    def load(cls, name: str) -> ChineseRules:
        """A preset's name, or else the path of a rule file (a name with ``.toml`` or a path
        separator, or an existing file): what ``--rules`` and ``solve(rules=...)`` take.

        >>> ChineseRules.load("shisanshui").sweep.value
        'double'
        >>> ChineseRules.load("shisansui")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cpsolver.errors.RuleError: rules.preset: unknown preset 'shisansui'; valid presets: ...
        """
        if name in cls.PRESETS:
            return cls.preset(name)
        if name.endswith(".toml") or "/" in name or os.sep in name or Path(name).is_file():
            return cls.from_file(name)
        valid = ", ".join(cls.PRESETS)
        raise RuleError(
            "rules.preset",
            f"unknown preset {name!r}; valid presets: {valid}, or a rule file's path",
        )

    def _check(self) -> None:
        custom = self.royalties is Royalties.CUSTOM
        if custom != (self.royalty_table is not None):
            raise RuleError(
                "rules.royalties",
                "royalties=custom goes with its own table (a [royalties] table in a rule file)",
            )
        if self.natural_table is not None and not self.naturals:
            raise RuleError("rules.naturals", "a list of naturals needs naturals on")
        if self.natural_table == ():
            raise RuleError(
                "rules.natural_table", "an empty list of naturals is naturals off (None here)"
            )
        if self.scoring is not Scoring.SCOOP_BONUS and self.scoop_bonus:
            raise RuleError("rules.scoring", "a scoop bonus goes with scoring=scoop_bonus:N")
        if self.foul is not Foul.FIXED and self.foul_units:
            raise RuleError("rules.foul", "units of a foul go with foul=fixed:N")

    def _read_data(self, name: str, value: object) -> object:
        """A data field as the constructor got it, read as its option's data is (the units of
        ``scoop_bonus:N`` / ``fixed:N``, the entries of a table or list): canonical (a table's
        entries in row then hand order, none of 0 units) or a :class:`RuleError`."""
        field = ("rules", name)
        if name in ("scoop_bonus", "foul_units"):
            return _units(field, value)
        if value is None:
            return None
        if name == "royalty_table":
            return _royalty_entries(value, field)
        return tuple(_natural_entries(value, field))

    def _read_option(self, name: str, raw: object) -> dict[str, object] | None:
        """The fields an option written as data sets (module doc); None for a plain option."""
        if name == "scoring":
            kind, units = _parameterised(name, raw, Scoring, Scoring.SCOOP_BONUS, self.scoop_bonus)
            return {"scoring": kind, "scoop_bonus": units}
        if name == "foul":
            kind, units = _parameterised(name, raw, Foul, Foul.FIXED, self.foul_units)
            return {"foul": kind, "foul_units": units}
        if name == "royalties":
            return _read_royalties(raw)
        if name == "naturals":
            return _read_naturals(raw)
        return None

    @property
    def bonus_table(self) -> RoyaltyTable:
        """The row-bonus table in force (CP-8's named schedule, or the rule file's own)."""
        if self.royalty_table is not None:
            return self.royalty_table
        return _NAMED_TABLES[self.royalties]

    @property
    def natural_list(self) -> NaturalTable:
        """The naturals in force, highest first (CP-11's four under ``naturals=on``; none
        under ``off``): position ``i`` in the list is natural code ``i + 1``."""
        if not self.naturals:
            return ()
        return self.natural_table if self.natural_table is not None else CP11_NATURALS

    @property
    def natural_units(self) -> tuple[int, ...]:
        """Units of each natural code: index 0 is "no natural" (0), then the list's units.

        >>> ChineseRules().natural_units
        (0, 13, 3, 3, 3)
        """
        return (0, *(units for _, units in self.natural_list))

    def royalty(self, row: Row, category: Category, *, royal: bool = False) -> int:
        """Row-bonus units (CP-8, CP-12) of a row's hand under this table (0 when none).

        >>> ChineseRules().royalty(Row.MIDDLE, Category.FULL_HOUSE)
        2
        >>> ChineseRules.preset("eastern").royalty(Row.BACK, Category.STRAIGHT_FLUSH, royal=True)
        7
        >>> ChineseRules.preset("shisanshui").royalty(Row.BACK, Category.STRAIGHT_FLUSH, royal=True)
        5
        """
        return _lookup(self.bonus_table, row, category, royal)

    def row_value(self, row: Row, category: Category, *, royal: bool = False) -> int:
        """Units a row collects when it wins: 1, or its royalty (``replace``), or 1 + royalty;
        always 1 under ``bonus_paid=always`` (the bonus is paid apart, CP-12).

        >>> ChineseRules(royalty_mode=RoyaltyMode.ADD).row_value(Row.BACK, Category.FOUR_OF_A_KIND)
        5
        >>> ChineseRules(bonus_paid=BonusPaid.ALWAYS).row_value(Row.BACK, Category.FOUR_OF_A_KIND)
        1
        """
        if self.bonus_paid is BonusPaid.ALWAYS:
            return 1
        royalty = self.royalty(row, category, royal=royal)
        if royalty == 0:
            return 1
        return royalty if self.royalty_mode is RoyaltyMode.REPLACE else 1 + royalty

    def bonus_always(self, row: Row, category: Category, *, royal: bool = False) -> int:
        """Units a row's holder collects from each opponent whatever the row's result, under
        ``bonus_paid=always`` (its listed bonus); 0 under ``on_win`` (CP-12).

        >>> always = ChineseRules(bonus_paid=BonusPaid.ALWAYS)
        >>> always.bonus_always(Row.FRONT, Category.THREE_OF_A_KIND)
        3
        """
        if self.bonus_paid is not BonusPaid.ALWAYS:
            return 0
        return self.royalty(row, category, royal=royal)

    def to_dict(self, *, full: bool = False) -> dict[str, object]:
        """Options as plain JSON values: enum names as text, ``scoop_bonus:N`` and ``fixed:N``
        with their N, the royalties' table ``{row: {hand: units}}`` when it is the rule set's
        own, the naturals' list when it is not CP-11's. The options of §2.5 at their defaults
        are left out (so the 432 rule sets of §2.1-2.2 keep their form and fingerprints)
        unless ``full``.

        >>> ChineseRules().to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'players': 4, 'order': 'weak', 'wheel': 'lowest', 'royalties': 'standard',
         'royalty_mode': 'replace', 'scoring': 'per_row', 'naturals': True}
        >>> len(ChineseRules().to_dict(full=True))
        13
        """
        out: dict[str, object] = {}
        default = _DEFAULT_VALUES
        for f in dataclasses.fields(self):
            name = f.name
            if name in self.DATA_FIELDS:
                continue
            value = getattr(self, name)
            if not full and name not in _LEGACY and value == default[name]:
                continue
            out[name] = value.value if isinstance(value, enum.Enum) else value
        if self.scoring is Scoring.SCOOP_BONUS:
            out["scoring"] = f"scoop_bonus:{self.scoop_bonus}"
        if self.foul is Foul.FIXED:
            out["foul"] = f"fixed:{self.foul_units}"
        if self.royalty_table is not None:
            out["royalties"] = table_dict(self.royalty_table)
        if self.natural_table is not None:
            out["naturals"] = [{"natural": n.value, "units": u} for n, u in self.natural_table]
        return out

    @property
    def strict_order(self) -> bool:
        """True when a back equal to the middle fouls (CP-6 ``order=strict``)."""
        return self.order is Order.STRICT

    @property
    def wheel_second_highest(self) -> bool:
        """True when A-2-3-4-5 ranks just below A-K-Q-J-T (CP-3)."""
        return self.wheel is Wheel.SECOND_HIGHEST


_DEFAULT_VALUES = {f.name: f.default for f in dataclasses.fields(ChineseRules)}


def _lookup(table: RoyaltyTable, row: Row, category: Category, royal: bool) -> int:
    hand = _CATEGORY_HAND[category]
    found = 0
    for r, h, units in table:
        if r is row:
            if h is hand:
                found = units
            elif royal and h is BonusHand.ROYAL_FLUSH and category is Category.STRAIGHT_FLUSH:
                return units
    return found


def table_dict(table: RoyaltyTable) -> dict[str, dict[str, int]]:
    """A row-bonus table as a rule file writes it: ``{row: {hand: units}}``, every row.

    >>> table_dict(((Row.FRONT, BonusHand.THREE_OF_A_KIND, 3),))
    {'front': {'three_of_a_kind': 3}, 'middle': {}, 'back': {}}
    """
    out: dict[str, dict[str, int]] = {row.label: {} for row in Row}
    for row, hand, units in table:
        out[row.label][hand.value] = units
    return out


def _units_into(
    problems: list[FieldViolation], field: tuple[str | int, ...], raw: object
) -> int | None:
    """:func:`_units`, or None with its violation added to ``problems`` (a table's reader
    reports every bad entry at once)."""
    try:
        return _units(field, raw)
    except RuleError as exc:
        problems.extend(exc.violations)
        return None


def _units(field: str | tuple[str | int, ...], raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        try:
            number = int(str(raw).strip())
        except ValueError:
            number = None
        if isinstance(raw, (bool, float)) or number is None:
            raise RuleError(field, f"invalid value {raw!r}; valid values: 0 to {MAX_UNITS}")
        raw = number
    if not 0 <= raw <= MAX_UNITS:
        raise RuleError(field, f"invalid value {raw!r}; valid values: 0 to {MAX_UNITS}")
    return raw


def _parameterised(
    name: str, raw: object, kind: type[Choice], with_units: Choice, current: int
) -> tuple[Choice, int]:
    """``scoring``/``foul``: a plain value, or ``scoop_bonus:N`` / ``fixed:N``."""
    field = f"rules.{name}"
    prefix = with_units.value.split(":")[0]
    valid = ", ".join(c.value for c in kind)
    allowed = f"valid values: {valid} (N 0 to {MAX_UNITS})"
    if isinstance(raw, kind):
        return raw, current if raw is with_units else 0
    text = str(raw).strip().lower().replace("-", "_")
    head, sep, tail = text.partition(":")
    if head == prefix:
        try:
            units = int(tail) if sep else -1
        except ValueError:
            units = -1
        if not 0 <= units <= MAX_UNITS:
            raise RuleError(field, f"invalid value {raw!r}; {allowed}")
        return with_units, units
    for choice in kind:
        if choice is not with_units and choice.value == text:
            return choice, 0
    raise RuleError(field, f"invalid value {raw!r}; {allowed}")


def _read_royalties(raw: object) -> dict[str, object]:
    """``royalties``: a schedule's name, or a table ``{row: {hand: units}}`` (CP-12) given as
    a mapping or as ``(row, hand, units)`` entries; a table equal to a named schedule is that
    schedule (one form per rule set)."""
    if isinstance(raw, (Royalties, str)):
        text = raw.value if isinstance(raw, Royalties) else raw.strip().lower()
        named = [r.value for r in Royalties if r is not Royalties.CUSTOM]
        if text not in named:
            raise RuleError(
                "rules.royalties",
                f"invalid value {raw!r}; valid values: {', '.join(named)}, or a table "
                "{row: {hand: units}}",
            )
        return {"royalties": Royalties(text), "royalty_table": None}
    entries: list[tuple[Row, BonusHand, int]] = []
    if isinstance(raw, tuple) and all(isinstance(e, tuple) for e in raw):
        entries = list(_royalty_entries(raw, ("rules", "royalties")))
    elif isinstance(raw, Mapping):
        rows = {row.label: row for row in Row}
        for row_name, hands in raw.items():
            if row_name not in rows:
                raise RuleError(
                    ("rules", "royalties", str(row_name)),
                    f"unknown row {row_name!r}; valid rows: front, middle, back",
                )
            row = rows[row_name]
            if not isinstance(hands, Mapping):
                raise RuleError(
                    ("rules", "royalties", row_name),
                    f"expected a table {{hand = units}}, got {hands!r}",
                )
            allowed = FRONT_HANDS if row is Row.FRONT else tuple(BonusHand)
            for hand_name, units in hands.items():
                path = ("rules", "royalties", row_name, str(hand_name))
                hand = next((h for h in allowed if h.value == hand_name), None)
                if hand is None:
                    valid = ", ".join(h.value for h in allowed)
                    raise RuleError(
                        path, f"unknown hand {hand_name!r} for the {row_name}; valid hands: {valid}"
                    )
                entries.append((row, hand, _units(path, units)))
    else:
        raise RuleError(
            "rules.royalties",
            f"invalid value {raw!r}; valid values: standard, eastern, none, or a table "
            "{row: {hand: units}}",
        )
    table = tuple(sorted((e for e in entries if e[2]), key=lambda e: (e[0], _HAND_ORDER[e[1]])))
    for schedule, schedule_table in _NAMED_TABLES.items():
        if table == schedule_table:
            return {"royalties": schedule, "royalty_table": None}
    return {"royalties": Royalties.CUSTOM, "royalty_table": table}


def _royalty_entries(raw: object, field: tuple[str | int, ...]) -> RoyaltyTable:
    """A row-bonus table given as ``(row, hand, units)`` entries (a row as :class:`Row` or its
    label, a hand as :class:`BonusHand` or its name), checked as a rule file's table is (the
    front's three hands only, units 0 to :data:`MAX_UNITS`, each row's hand once), in row then
    hand order without the entries of 0 units (they pay nothing).

    Every problem is reported at once, each on its own part of its entry (``field[i].row``,
    ``.hand``, ``.units``): the gRPC message's entries are read here, index for index.

    >>> _royalty_entries([(None, "HAND_CATEGORY_PAIR", -3)], ("rules", "royalty_table"))
    Traceback (most recent call last):
    ...
    cpsolver.errors.RuleError: rules.royalty_table[0].row: missing row; \
rules.royalty_table[0].hand: unknown hand 'HAND_CATEGORY_PAIR'; valid hands: high_card, pair, \
two_pair, three_of_a_kind, straight, flush, full_house, four_of_a_kind, straight_flush, \
royal_flush; rules.royalty_table[0].units: invalid value -3; valid values: 0 to 10000
    """
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, (tuple, list)):
        raise RuleError(field, f"expected (row, hand, units) entries, got {raw!r}")
    problems: list[FieldViolation] = []
    entries: dict[tuple[Row, BonusHand], int] = {}
    for i, entry in enumerate(raw):
        path = (*field, i)
        if not isinstance(entry, (tuple, list)) or len(entry) != 3:
            problems.append(FieldViolation(path, f"expected (row, hand, units), got {entry!r}"))
            continue
        row_raw, hand_raw, units_raw = entry
        found = len(problems)
        if isinstance(row_raw, Row):
            row: Row | None = row_raw
        elif isinstance(row_raw, int) and not isinstance(row_raw, bool):
            row = Row(row_raw) if 0 <= row_raw < len(Row) else None
        else:
            row = None if row_raw is None else _ROW_NAMES.get(str(row_raw).strip().lower())
        if row is None:
            problems.append(
                FieldViolation(
                    (*path, "row"),
                    "missing row"
                    if row_raw is None
                    else f"unknown row {row_raw!r}; valid rows: front, middle, back",
                )
            )
        # The hand is checked whatever the row: against the row's hands when the row is
        # known, else against every hand a table may name.
        allowed = _FRONT_HAND_NAMES if row is Row.FRONT else _HAND_NAMES
        text = hand_raw.value if isinstance(hand_raw, BonusHand) else str(hand_raw).strip()
        hand = allowed.get(text)
        if hand is None:
            where = f" for the {row.label}" if row is not None else ""
            problems.append(
                FieldViolation(
                    (*path, "hand"),
                    f"unknown hand {text!r}{where}; valid hands: {', '.join(allowed)}",
                )
            )
        units = _units_into(problems, (*path, "units"), units_raw)
        if len(problems) > found or row is None or hand is None or units is None:
            continue
        if (row, hand) in entries:
            problems.append(
                FieldViolation((*path, "hand"), f"{hand.value} is listed twice for the {row.label}")
            )
            continue
        entries[row, hand] = units
    if problems:
        raise RuleError(violations=problems)
    return tuple(
        sorted(
            ((row, hand, units) for (row, hand), units in entries.items() if units),
            key=lambda e: (e[0], _HAND_ORDER[e[1]]),
        )
    )


def _read_naturals(raw: object) -> dict[str, object]:
    """``naturals``: on/off (CP-11), or a ranked list of ``{natural, units}`` entries (CP-15,
    highest first; ``(name, units)`` pairs in code). An empty list is ``off``; CP-11's own
    list is ``on``."""
    if isinstance(raw, (bool, str)):
        text = str(raw).strip().lower()
        if text in ("true", "on", "yes", "1"):
            return {"naturals": True, "natural_table": None}
        if text in ("false", "off", "no", "0"):
            return {"naturals": False, "natural_table": None}
        raise RuleError(
            "rules.naturals",
            f"invalid value {raw!r}; valid values: on, off, or a list of "
            "{natural, units}, highest first",
        )
    if not isinstance(raw, (list, tuple)):
        raise RuleError(
            "rules.naturals",
            f"invalid value {raw!r}; valid values: on, off, or a list of {{natural, units}}",
        )
    table = _natural_entries(raw, ("rules", "naturals"))
    if not table:
        return {"naturals": False, "natural_table": None}
    if tuple(table) == CP11_NATURALS:
        return {"naturals": True, "natural_table": None}
    return {"naturals": True, "natural_table": tuple(table)}


def _natural_entries(raw: object, field: tuple[str | int, ...]) -> list[tuple[NaturalName, int]]:
    """A ranked list of naturals given as ``{natural, units}`` entries or ``(name, units)``
    pairs, each natural once, units 0 to :data:`MAX_UNITS` (CP-15), highest first.

    Every problem is reported at once, each on its own part of its entry (``field[i].natural``,
    ``.units``); a natural given as None is missing.

    >>> _natural_entries([{"natural": "dragon", "units": 13}, (None, -1)], ("rules", "naturals"))
    Traceback (most recent call last):
    ...
    cpsolver.errors.RuleError: rules.naturals[1].natural: missing natural; \
rules.naturals[1].units: invalid value -1; valid values: 0 to 10000
    """
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, (tuple, list)):
        raise RuleError(field, f"expected a list of {{natural, units}}, got {raw!r}")
    problems: list[FieldViolation] = []
    table: list[tuple[NaturalName, int]] = []
    for i, entry in enumerate(raw):
        path: tuple[str | int, ...] = (*field, i)
        found = len(problems)
        if isinstance(entry, Mapping):
            for key in sorted(set(map(str, entry)) - {"natural", "units"}):
                problems.append(
                    FieldViolation((*path, key), "unknown key; valid keys: natural, units")
                )
            for key in ("natural", "units"):
                if key not in entry:
                    problems.append(FieldViolation((*path, key), f"missing {key}"))
            name, units = entry.get("natural"), entry.get("units")
            if "natural" not in entry:
                name = _ABSENT
            if "units" not in entry:
                units = _ABSENT
        elif isinstance(entry, tuple) and len(entry) == 2:
            name, units = entry
        else:
            problems.append(FieldViolation(path, f"expected {{natural, units}}, got {entry!r}"))
            continue
        natural: NaturalName | None = None
        if isinstance(name, NaturalName):
            natural = name
        elif name is None:
            problems.append(FieldViolation((*path, "natural"), "missing natural"))
        elif name is not _ABSENT:
            natural = _NATURAL_NAMES.get(str(name).strip().lower())
            if natural is None:
                names = ", ".join(_NATURAL_NAMES)
                problems.append(
                    FieldViolation(
                        (*path, "natural"), f"unknown natural {name!r}; valid naturals: {names}"
                    )
                )
        count = None
        if units is not _ABSENT:
            count = _units_into(problems, (*path, "units"), units)
        if len(problems) > found or natural is None or count is None:
            continue
        if any(n is natural for n, _ in table):
            problems.append(FieldViolation((*path, "natural"), f"{natural.value} is listed twice"))
            continue
        table.append((natural, count))
    if problems:
        raise RuleError(violations=problems)
    return table

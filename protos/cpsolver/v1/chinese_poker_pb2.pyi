from cpsolver.v1 import cards_pb2 as _cards_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.rpc import status_pb2 as _status_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Objective(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OBJECTIVE_UNSPECIFIED: _ClassVar[Objective]
    OBJECTIVE_STRENGTH: _ClassVar[Objective]
    OBJECTIVE_ROYALTIES: _ClassVar[Objective]
    OBJECTIVE_EV: _ClassVar[Objective]

class Row(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROW_UNSPECIFIED: _ClassVar[Row]
    ROW_FRONT: _ClassVar[Row]
    ROW_MIDDLE: _ClassVar[Row]
    ROW_BACK: _ClassVar[Row]

class HandCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HAND_CATEGORY_UNSPECIFIED: _ClassVar[HandCategory]
    HAND_CATEGORY_HIGH_CARD: _ClassVar[HandCategory]
    HAND_CATEGORY_PAIR: _ClassVar[HandCategory]
    HAND_CATEGORY_TWO_PAIR: _ClassVar[HandCategory]
    HAND_CATEGORY_THREE_OF_A_KIND: _ClassVar[HandCategory]
    HAND_CATEGORY_STRAIGHT: _ClassVar[HandCategory]
    HAND_CATEGORY_FLUSH: _ClassVar[HandCategory]
    HAND_CATEGORY_FULL_HOUSE: _ClassVar[HandCategory]
    HAND_CATEGORY_FOUR_OF_A_KIND: _ClassVar[HandCategory]
    HAND_CATEGORY_STRAIGHT_FLUSH: _ClassVar[HandCategory]

class NaturalKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NATURAL_KIND_UNSPECIFIED: _ClassVar[NaturalKind]
    NATURAL_KIND_DRAGON: _ClassVar[NaturalKind]
    NATURAL_KIND_THREE_FLUSHES: _ClassVar[NaturalKind]
    NATURAL_KIND_THREE_STRAIGHTS: _ClassVar[NaturalKind]
    NATURAL_KIND_SIX_PAIRS: _ClassVar[NaturalKind]
    NATURAL_KIND_CLEAN_DRAGON: _ClassVar[NaturalKind]
    NATURAL_KIND_TWELVE_ROYALS: _ClassVar[NaturalKind]
    NATURAL_KIND_THREE_STRAIGHT_FLUSHES: _ClassVar[NaturalKind]
    NATURAL_KIND_THREE_QUADS: _ClassVar[NaturalKind]
    NATURAL_KIND_ALL_HIGH: _ClassVar[NaturalKind]
    NATURAL_KIND_ALL_LOW: _ClassVar[NaturalKind]
    NATURAL_KIND_ONE_COLOR: _ClassVar[NaturalKind]
    NATURAL_KIND_TWELVE_ONE_COLOR: _ClassVar[NaturalKind]
    NATURAL_KIND_TWO_FULL_HOUSES_TRIPS: _ClassVar[NaturalKind]
    NATURAL_KIND_FOUR_TRIPS: _ClassVar[NaturalKind]
    NATURAL_KIND_FIVE_PAIRS_TRIPS: _ClassVar[NaturalKind]

class Place(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLACE_UNSPECIFIED: _ClassVar[Place]
    PLACE_FRONT: _ClassVar[Place]
    PLACE_MIDDLE: _ClassVar[Place]
    PLACE_BACK: _ClassVar[Place]
    PLACE_DISCARD: _ClassVar[Place]

class NaturalPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NATURAL_POLICY_UNSPECIFIED: _ClassVar[NaturalPolicy]
    NATURAL_POLICY_AUTO: _ClassVar[NaturalPolicy]
    NATURAL_POLICY_FORCE: _ClassVar[NaturalPolicy]
    NATURAL_POLICY_FORBID: _ClassVar[NaturalPolicy]

class Engine(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ENGINE_UNSPECIFIED: _ClassVar[Engine]
    ENGINE_EXACT: _ClassVar[Engine]
    ENGINE_CPSAT: _ClassVar[Engine]

class Settlement(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SETTLEMENT_UNSPECIFIED: _ClassVar[Settlement]
    SETTLEMENT_ROWS: _ClassVar[Settlement]
    SETTLEMENT_FOUL: _ClassVar[Settlement]
    SETTLEMENT_BOTH_FOULED: _ClassVar[Settlement]
    SETTLEMENT_NATURAL: _ClassVar[Settlement]

class Outcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OUTCOME_UNSPECIFIED: _ClassVar[Outcome]
    OUTCOME_WIN: _ClassVar[Outcome]
    OUTCOME_TIE: _ClassVar[Outcome]
    OUTCOME_LOSS: _ClassVar[Outcome]
OBJECTIVE_UNSPECIFIED: Objective
OBJECTIVE_STRENGTH: Objective
OBJECTIVE_ROYALTIES: Objective
OBJECTIVE_EV: Objective
ROW_UNSPECIFIED: Row
ROW_FRONT: Row
ROW_MIDDLE: Row
ROW_BACK: Row
HAND_CATEGORY_UNSPECIFIED: HandCategory
HAND_CATEGORY_HIGH_CARD: HandCategory
HAND_CATEGORY_PAIR: HandCategory
HAND_CATEGORY_TWO_PAIR: HandCategory
HAND_CATEGORY_THREE_OF_A_KIND: HandCategory
HAND_CATEGORY_STRAIGHT: HandCategory
HAND_CATEGORY_FLUSH: HandCategory
HAND_CATEGORY_FULL_HOUSE: HandCategory
HAND_CATEGORY_FOUR_OF_A_KIND: HandCategory
HAND_CATEGORY_STRAIGHT_FLUSH: HandCategory
NATURAL_KIND_UNSPECIFIED: NaturalKind
NATURAL_KIND_DRAGON: NaturalKind
NATURAL_KIND_THREE_FLUSHES: NaturalKind
NATURAL_KIND_THREE_STRAIGHTS: NaturalKind
NATURAL_KIND_SIX_PAIRS: NaturalKind
NATURAL_KIND_CLEAN_DRAGON: NaturalKind
NATURAL_KIND_TWELVE_ROYALS: NaturalKind
NATURAL_KIND_THREE_STRAIGHT_FLUSHES: NaturalKind
NATURAL_KIND_THREE_QUADS: NaturalKind
NATURAL_KIND_ALL_HIGH: NaturalKind
NATURAL_KIND_ALL_LOW: NaturalKind
NATURAL_KIND_ONE_COLOR: NaturalKind
NATURAL_KIND_TWELVE_ONE_COLOR: NaturalKind
NATURAL_KIND_TWO_FULL_HOUSES_TRIPS: NaturalKind
NATURAL_KIND_FOUR_TRIPS: NaturalKind
NATURAL_KIND_FIVE_PAIRS_TRIPS: NaturalKind
PLACE_UNSPECIFIED: Place
PLACE_FRONT: Place
PLACE_MIDDLE: Place
PLACE_BACK: Place
PLACE_DISCARD: Place
NATURAL_POLICY_UNSPECIFIED: NaturalPolicy
NATURAL_POLICY_AUTO: NaturalPolicy
NATURAL_POLICY_FORCE: NaturalPolicy
NATURAL_POLICY_FORBID: NaturalPolicy
ENGINE_UNSPECIFIED: Engine
ENGINE_EXACT: Engine
ENGINE_CPSAT: Engine
SETTLEMENT_UNSPECIFIED: Settlement
SETTLEMENT_ROWS: Settlement
SETTLEMENT_FOUL: Settlement
SETTLEMENT_BOTH_FOULED: Settlement
SETTLEMENT_NATURAL: Settlement
OUTCOME_UNSPECIFIED: Outcome
OUTCOME_WIN: Outcome
OUTCOME_TIE: Outcome
OUTCOME_LOSS: Outcome

class ChineseRules(_message.Message):
    __slots__ = ("preset", "players", "order", "wheel", "royalties", "royalty_mode", "scoring", "naturals", "bonus_paid", "sweep", "foul", "natural_ties", "declare", "naturals_scooped", "scoop_bonus", "foul_units", "royalty_table", "natural_table", "rules_toml")
    class Order(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        ORDER_UNSPECIFIED: _ClassVar[ChineseRules.Order]
        ORDER_WEAK: _ClassVar[ChineseRules.Order]
        ORDER_STRICT: _ClassVar[ChineseRules.Order]
    ORDER_UNSPECIFIED: ChineseRules.Order
    ORDER_WEAK: ChineseRules.Order
    ORDER_STRICT: ChineseRules.Order
    class Wheel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        WHEEL_UNSPECIFIED: _ClassVar[ChineseRules.Wheel]
        WHEEL_LOWEST: _ClassVar[ChineseRules.Wheel]
        WHEEL_SECOND_HIGHEST: _ClassVar[ChineseRules.Wheel]
    WHEEL_UNSPECIFIED: ChineseRules.Wheel
    WHEEL_LOWEST: ChineseRules.Wheel
    WHEEL_SECOND_HIGHEST: ChineseRules.Wheel
    class Royalties(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        ROYALTIES_UNSPECIFIED: _ClassVar[ChineseRules.Royalties]
        ROYALTIES_STANDARD: _ClassVar[ChineseRules.Royalties]
        ROYALTIES_EASTERN: _ClassVar[ChineseRules.Royalties]
        ROYALTIES_NONE: _ClassVar[ChineseRules.Royalties]
        ROYALTIES_CUSTOM: _ClassVar[ChineseRules.Royalties]
    ROYALTIES_UNSPECIFIED: ChineseRules.Royalties
    ROYALTIES_STANDARD: ChineseRules.Royalties
    ROYALTIES_EASTERN: ChineseRules.Royalties
    ROYALTIES_NONE: ChineseRules.Royalties
    ROYALTIES_CUSTOM: ChineseRules.Royalties
    class RoyaltyMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        ROYALTY_MODE_UNSPECIFIED: _ClassVar[ChineseRules.RoyaltyMode]
        ROYALTY_MODE_REPLACE: _ClassVar[ChineseRules.RoyaltyMode]
        ROYALTY_MODE_ADD: _ClassVar[ChineseRules.RoyaltyMode]
    ROYALTY_MODE_UNSPECIFIED: ChineseRules.RoyaltyMode
    ROYALTY_MODE_REPLACE: ChineseRules.RoyaltyMode
    ROYALTY_MODE_ADD: ChineseRules.RoyaltyMode
    class Scoring(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        SCORING_UNSPECIFIED: _ClassVar[ChineseRules.Scoring]
        SCORING_PER_ROW: _ClassVar[ChineseRules.Scoring]
        SCORING_SCOOP_DOUBLE: _ClassVar[ChineseRules.Scoring]
        SCORING_TWO_FOUR: _ClassVar[ChineseRules.Scoring]
        SCORING_SCOOP_BONUS: _ClassVar[ChineseRules.Scoring]
    SCORING_UNSPECIFIED: ChineseRules.Scoring
    SCORING_PER_ROW: ChineseRules.Scoring
    SCORING_SCOOP_DOUBLE: ChineseRules.Scoring
    SCORING_TWO_FOUR: ChineseRules.Scoring
    SCORING_SCOOP_BONUS: ChineseRules.Scoring
    class BonusPaid(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        BONUS_PAID_UNSPECIFIED: _ClassVar[ChineseRules.BonusPaid]
        BONUS_PAID_ON_WIN: _ClassVar[ChineseRules.BonusPaid]
        BONUS_PAID_ALWAYS: _ClassVar[ChineseRules.BonusPaid]
    BONUS_PAID_UNSPECIFIED: ChineseRules.BonusPaid
    BONUS_PAID_ON_WIN: ChineseRules.BonusPaid
    BONUS_PAID_ALWAYS: ChineseRules.BonusPaid
    class Sweep(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        SWEEP_UNSPECIFIED: _ClassVar[ChineseRules.Sweep]
        SWEEP_NONE: _ClassVar[ChineseRules.Sweep]
        SWEEP_DOUBLE: _ClassVar[ChineseRules.Sweep]
    SWEEP_UNSPECIFIED: ChineseRules.Sweep
    SWEEP_NONE: ChineseRules.Sweep
    SWEEP_DOUBLE: ChineseRules.Sweep
    class Foul(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        FOUL_UNSPECIFIED: _ClassVar[ChineseRules.Foul]
        FOUL_SCOOPED: _ClassVar[ChineseRules.Foul]
        FOUL_FIXED: _ClassVar[ChineseRules.Foul]
    FOUL_UNSPECIFIED: ChineseRules.Foul
    FOUL_SCOOPED: ChineseRules.Foul
    FOUL_FIXED: ChineseRules.Foul
    class NaturalTies(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        NATURAL_TIES_UNSPECIFIED: _ClassVar[ChineseRules.NaturalTies]
        NATURAL_TIES_PUSH: _ClassVar[ChineseRules.NaturalTies]
        NATURAL_TIES_DIFFERENCE: _ClassVar[ChineseRules.NaturalTies]
    NATURAL_TIES_UNSPECIFIED: ChineseRules.NaturalTies
    NATURAL_TIES_PUSH: ChineseRules.NaturalTies
    NATURAL_TIES_DIFFERENCE: ChineseRules.NaturalTies
    class Declare(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        DECLARE_UNSPECIFIED: _ClassVar[ChineseRules.Declare]
        DECLARE_CHOICE: _ClassVar[ChineseRules.Declare]
        DECLARE_AUTO: _ClassVar[ChineseRules.Declare]
    DECLARE_UNSPECIFIED: ChineseRules.Declare
    DECLARE_CHOICE: ChineseRules.Declare
    DECLARE_AUTO: ChineseRules.Declare
    class RowBonus(_message.Message):
        __slots__ = ("row", "hand", "units")
        ROW_FIELD_NUMBER: _ClassVar[int]
        HAND_FIELD_NUMBER: _ClassVar[int]
        UNITS_FIELD_NUMBER: _ClassVar[int]
        row: Row
        hand: str
        units: int
        def __init__(self, row: _Optional[_Union[Row, str]] = ..., hand: _Optional[str] = ..., units: _Optional[int] = ...) -> None: ...
    class NaturalEntry(_message.Message):
        __slots__ = ("natural", "units")
        NATURAL_FIELD_NUMBER: _ClassVar[int]
        UNITS_FIELD_NUMBER: _ClassVar[int]
        natural: NaturalKind
        units: int
        def __init__(self, natural: _Optional[_Union[NaturalKind, str]] = ..., units: _Optional[int] = ...) -> None: ...
    PRESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    WHEEL_FIELD_NUMBER: _ClassVar[int]
    ROYALTIES_FIELD_NUMBER: _ClassVar[int]
    ROYALTY_MODE_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    NATURALS_FIELD_NUMBER: _ClassVar[int]
    BONUS_PAID_FIELD_NUMBER: _ClassVar[int]
    SWEEP_FIELD_NUMBER: _ClassVar[int]
    FOUL_FIELD_NUMBER: _ClassVar[int]
    NATURAL_TIES_FIELD_NUMBER: _ClassVar[int]
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    NATURALS_SCOOPED_FIELD_NUMBER: _ClassVar[int]
    SCOOP_BONUS_FIELD_NUMBER: _ClassVar[int]
    FOUL_UNITS_FIELD_NUMBER: _ClassVar[int]
    ROYALTY_TABLE_FIELD_NUMBER: _ClassVar[int]
    NATURAL_TABLE_FIELD_NUMBER: _ClassVar[int]
    RULES_TOML_FIELD_NUMBER: _ClassVar[int]
    preset: str
    players: int
    order: ChineseRules.Order
    wheel: ChineseRules.Wheel
    royalties: ChineseRules.Royalties
    royalty_mode: ChineseRules.RoyaltyMode
    scoring: ChineseRules.Scoring
    naturals: bool
    bonus_paid: ChineseRules.BonusPaid
    sweep: ChineseRules.Sweep
    foul: ChineseRules.Foul
    natural_ties: ChineseRules.NaturalTies
    declare: ChineseRules.Declare
    naturals_scooped: bool
    scoop_bonus: int
    foul_units: int
    royalty_table: _containers.RepeatedCompositeFieldContainer[ChineseRules.RowBonus]
    natural_table: _containers.RepeatedCompositeFieldContainer[ChineseRules.NaturalEntry]
    rules_toml: str
    def __init__(self, preset: _Optional[str] = ..., players: _Optional[int] = ..., order: _Optional[_Union[ChineseRules.Order, str]] = ..., wheel: _Optional[_Union[ChineseRules.Wheel, str]] = ..., royalties: _Optional[_Union[ChineseRules.Royalties, str]] = ..., royalty_mode: _Optional[_Union[ChineseRules.RoyaltyMode, str]] = ..., scoring: _Optional[_Union[ChineseRules.Scoring, str]] = ..., naturals: _Optional[bool] = ..., bonus_paid: _Optional[_Union[ChineseRules.BonusPaid, str]] = ..., sweep: _Optional[_Union[ChineseRules.Sweep, str]] = ..., foul: _Optional[_Union[ChineseRules.Foul, str]] = ..., natural_ties: _Optional[_Union[ChineseRules.NaturalTies, str]] = ..., declare: _Optional[_Union[ChineseRules.Declare, str]] = ..., naturals_scooped: _Optional[bool] = ..., scoop_bonus: _Optional[int] = ..., foul_units: _Optional[int] = ..., royalty_table: _Optional[_Iterable[_Union[ChineseRules.RowBonus, _Mapping]]] = ..., natural_table: _Optional[_Iterable[_Union[ChineseRules.NaturalEntry, _Mapping]]] = ..., rules_toml: _Optional[str] = ...) -> None: ...

class Arrangement(_message.Message):
    __slots__ = ("back", "middle", "front")
    BACK_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    FRONT_FIELD_NUMBER: _ClassVar[int]
    back: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    middle: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    front: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, back: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., middle: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., front: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class Hand(_message.Message):
    __slots__ = ("cards", "category", "name", "strength", "royal")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    ROYAL_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    category: HandCategory
    name: str
    strength: int
    royal: bool
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., category: _Optional[_Union[HandCategory, str]] = ..., name: _Optional[str] = ..., strength: _Optional[int] = ..., royal: _Optional[bool] = ...) -> None: ...

class RowOdds(_message.Message):
    __slots__ = ("win", "tie", "loss", "units")
    WIN_FIELD_NUMBER: _ClassVar[int]
    TIE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    win: float
    tie: float
    loss: float
    units: float
    def __init__(self, win: _Optional[float] = ..., tie: _Optional[float] = ..., loss: _Optional[float] = ..., units: _Optional[float] = ...) -> None: ...

class RowResult(_message.Message):
    __slots__ = ("row", "hand", "royalty", "odds")
    ROW_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    ROYALTY_FIELD_NUMBER: _ClassVar[int]
    ODDS_FIELD_NUMBER: _ClassVar[int]
    row: Row
    hand: Hand
    royalty: int
    odds: RowOdds
    def __init__(self, row: _Optional[_Union[Row, str]] = ..., hand: _Optional[_Union[Hand, _Mapping]] = ..., royalty: _Optional[int] = ..., odds: _Optional[_Union[RowOdds, _Mapping]] = ...) -> None: ...

class Natural(_message.Message):
    __slots__ = ("kind", "name", "units", "declared", "groups")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    DECLARED_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    kind: NaturalKind
    name: str
    units: int
    declared: bool
    groups: _containers.RepeatedCompositeFieldContainer[CardGroup]
    def __init__(self, kind: _Optional[_Union[NaturalKind, str]] = ..., name: _Optional[str] = ..., units: _Optional[int] = ..., declared: _Optional[bool] = ..., groups: _Optional[_Iterable[_Union[CardGroup, _Mapping]]] = ...) -> None: ...

class CardGroup(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class Interval(_message.Message):
    __slots__ = ("low", "high")
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    low: float
    high: float
    def __init__(self, low: _Optional[float] = ..., high: _Optional[float] = ...) -> None: ...

class Alternative(_message.Message):
    __slots__ = ("arrangement", "value", "gap", "value_interval", "natural")
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    GAP_FIELD_NUMBER: _ClassVar[int]
    VALUE_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    arrangement: Arrangement
    value: float
    gap: float
    value_interval: Interval
    natural: NaturalKind
    def __init__(self, arrangement: _Optional[_Union[Arrangement, _Mapping]] = ..., value: _Optional[float] = ..., gap: _Optional[float] = ..., value_interval: _Optional[_Union[Interval, _Mapping]] = ..., natural: _Optional[_Union[NaturalKind, str]] = ...) -> None: ...

class CardPlace(_message.Message):
    __slots__ = ("card", "place")
    CARD_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    place: Place
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., place: _Optional[_Union[Place, str]] = ...) -> None: ...

class RowMinimum(_message.Message):
    __slots__ = ("row", "category", "strength")
    ROW_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    row: Row
    category: HandCategory
    strength: int
    def __init__(self, row: _Optional[_Union[Row, str]] = ..., category: _Optional[_Union[HandCategory, str]] = ..., strength: _Optional[int] = ...) -> None: ...

class SolveConstraints(_message.Message):
    __slots__ = ("pins", "forbids", "minimums", "natural")
    PINS_FIELD_NUMBER: _ClassVar[int]
    FORBIDS_FIELD_NUMBER: _ClassVar[int]
    MINIMUMS_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    pins: _containers.RepeatedCompositeFieldContainer[CardPlace]
    forbids: _containers.RepeatedCompositeFieldContainer[CardPlace]
    minimums: _containers.RepeatedCompositeFieldContainer[RowMinimum]
    natural: NaturalPolicy
    def __init__(self, pins: _Optional[_Iterable[_Union[CardPlace, _Mapping]]] = ..., forbids: _Optional[_Iterable[_Union[CardPlace, _Mapping]]] = ..., minimums: _Optional[_Iterable[_Union[RowMinimum, _Mapping]]] = ..., natural: _Optional[_Union[NaturalPolicy, str]] = ...) -> None: ...

class SolveRequest(_message.Message):
    __slots__ = ("cards", "rules", "objective", "top_k", "rollouts", "seed", "constraints", "engine", "calibrated", "budget_ms", "estimator", "arrangements")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    ROLLOUTS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CONSTRAINTS_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    CALIBRATED_FIELD_NUMBER: _ClassVar[int]
    BUDGET_MS_FIELD_NUMBER: _ClassVar[int]
    ESTIMATOR_FIELD_NUMBER: _ClassVar[int]
    ARRANGEMENTS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    rules: ChineseRules
    objective: Objective
    top_k: int
    rollouts: int
    seed: int
    constraints: SolveConstraints
    engine: Engine
    calibrated: bool
    budget_ms: int
    estimator: str
    arrangements: int
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., rules: _Optional[_Union[ChineseRules, _Mapping]] = ..., objective: _Optional[_Union[Objective, str]] = ..., top_k: _Optional[int] = ..., rollouts: _Optional[int] = ..., seed: _Optional[int] = ..., constraints: _Optional[_Union[SolveConstraints, _Mapping]] = ..., engine: _Optional[_Union[Engine, str]] = ..., calibrated: _Optional[bool] = ..., budget_ms: _Optional[int] = ..., estimator: _Optional[str] = ..., arrangements: _Optional[int] = ...) -> None: ...

class SolveResponse(_message.Message):
    __slots__ = ("arrangement", "rows", "royalties", "objective", "value", "value_interval", "natural", "alternatives", "rollouts", "discarded", "natural_settlement", "calibrated", "estimator", "tables", "candidates")
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    ROYALTIES_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUE_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    ROLLOUTS_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    NATURAL_SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    CALIBRATED_FIELD_NUMBER: _ClassVar[int]
    ESTIMATOR_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    arrangement: Arrangement
    rows: _containers.RepeatedCompositeFieldContainer[RowResult]
    royalties: int
    objective: Objective
    value: float
    value_interval: Interval
    natural: Natural
    alternatives: _containers.RepeatedCompositeFieldContainer[Alternative]
    rollouts: int
    discarded: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    natural_settlement: NaturalSettlement
    calibrated: bool
    estimator: str
    tables: TablesInfo
    candidates: _containers.RepeatedCompositeFieldContainer[ScoredCandidate]
    def __init__(self, arrangement: _Optional[_Union[Arrangement, _Mapping]] = ..., rows: _Optional[_Iterable[_Union[RowResult, _Mapping]]] = ..., royalties: _Optional[int] = ..., objective: _Optional[_Union[Objective, str]] = ..., value: _Optional[float] = ..., value_interval: _Optional[_Union[Interval, _Mapping]] = ..., natural: _Optional[_Union[Natural, _Mapping]] = ..., alternatives: _Optional[_Iterable[_Union[Alternative, _Mapping]]] = ..., rollouts: _Optional[int] = ..., discarded: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., natural_settlement: _Optional[_Union[NaturalSettlement, _Mapping]] = ..., calibrated: _Optional[bool] = ..., estimator: _Optional[str] = ..., tables: _Optional[_Union[TablesInfo, _Mapping]] = ..., candidates: _Optional[_Iterable[_Union[ScoredCandidate, _Mapping]]] = ...) -> None: ...

class TablesInfo(_message.Message):
    __slots__ = ("key", "file", "source", "directory", "stand_in_for")
    class Source(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        SOURCE_UNSPECIFIED: _ClassVar[TablesInfo.Source]
        SOURCE_SHIPPED: _ClassVar[TablesInfo.Source]
        SOURCE_USER: _ClassVar[TablesInfo.Source]
    SOURCE_UNSPECIFIED: TablesInfo.Source
    SOURCE_SHIPPED: TablesInfo.Source
    SOURCE_USER: TablesInfo.Source
    KEY_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    DIRECTORY_FIELD_NUMBER: _ClassVar[int]
    STAND_IN_FOR_FIELD_NUMBER: _ClassVar[int]
    key: str
    file: str
    source: TablesInfo.Source
    directory: str
    stand_in_for: str
    def __init__(self, key: _Optional[str] = ..., file: _Optional[str] = ..., source: _Optional[_Union[TablesInfo.Source, str]] = ..., directory: _Optional[str] = ..., stand_in_for: _Optional[str] = ...) -> None: ...

class ScoredCandidate(_message.Message):
    __slots__ = ("rows", "natural", "model_value", "value", "value_interval", "rollouts")
    ROWS_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    MODEL_VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUE_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    ROLLOUTS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[RowResult]
    natural: NaturalKind
    model_value: float
    value: float
    value_interval: Interval
    rollouts: int
    def __init__(self, rows: _Optional[_Iterable[_Union[RowResult, _Mapping]]] = ..., natural: _Optional[_Union[NaturalKind, str]] = ..., model_value: _Optional[float] = ..., value: _Optional[float] = ..., value_interval: _Optional[_Union[Interval, _Mapping]] = ..., rollouts: _Optional[int] = ...) -> None: ...

class NaturalSettlement(_message.Message):
    __slots__ = ("units", "win", "tie", "loss")
    UNITS_FIELD_NUMBER: _ClassVar[int]
    WIN_FIELD_NUMBER: _ClassVar[int]
    TIE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    units: int
    win: float
    tie: float
    loss: float
    def __init__(self, units: _Optional[int] = ..., win: _Optional[float] = ..., tie: _Optional[float] = ..., loss: _Optional[float] = ...) -> None: ...

class BatchSolveRequest(_message.Message):
    __slots__ = ("requests",)
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    requests: _containers.RepeatedCompositeFieldContainer[SolveRequest]
    def __init__(self, requests: _Optional[_Iterable[_Union[SolveRequest, _Mapping]]] = ...) -> None: ...

class BatchSolveResponse(_message.Message):
    __slots__ = ("index", "status", "response")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    index: int
    status: _status_pb2.Status
    response: SolveResponse
    def __init__(self, index: _Optional[int] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., response: _Optional[_Union[SolveResponse, _Mapping]] = ...) -> None: ...

class EvaluateHandRequest(_message.Message):
    __slots__ = ("cards", "rules")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    rules: ChineseRules
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., rules: _Optional[_Union[ChineseRules, _Mapping]] = ...) -> None: ...

class EvaluateHandResponse(_message.Message):
    __slots__ = ("hand",)
    HAND_FIELD_NUMBER: _ClassVar[int]
    hand: Hand
    def __init__(self, hand: _Optional[_Union[Hand, _Mapping]] = ...) -> None: ...

class ValidateArrangementRequest(_message.Message):
    __slots__ = ("arrangement", "rules")
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    arrangement: Arrangement
    rules: ChineseRules
    def __init__(self, arrangement: _Optional[_Union[Arrangement, _Mapping]] = ..., rules: _Optional[_Union[ChineseRules, _Mapping]] = ...) -> None: ...

class ValidateArrangementResponse(_message.Message):
    __slots__ = ("valid", "foul_reason", "rows", "royalties")
    VALID_FIELD_NUMBER: _ClassVar[int]
    FOUL_REASON_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    ROYALTIES_FIELD_NUMBER: _ClassVar[int]
    valid: bool
    foul_reason: str
    rows: _containers.RepeatedCompositeFieldContainer[RowResult]
    royalties: int
    def __init__(self, valid: _Optional[bool] = ..., foul_reason: _Optional[str] = ..., rows: _Optional[_Iterable[_Union[RowResult, _Mapping]]] = ..., royalties: _Optional[int] = ...) -> None: ...

class TablePlayer(_message.Message):
    __slots__ = ("seat", "arrangement", "natural")
    class NaturalDeclaration(_message.Message):
        __slots__ = ("cards",)
        CARDS_FIELD_NUMBER: _ClassVar[int]
        cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
        def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    seat: str
    arrangement: Arrangement
    natural: TablePlayer.NaturalDeclaration
    def __init__(self, seat: _Optional[str] = ..., arrangement: _Optional[_Union[Arrangement, _Mapping]] = ..., natural: _Optional[_Union[TablePlayer.NaturalDeclaration, _Mapping]] = ...) -> None: ...

class ScoreTableRequest(_message.Message):
    __slots__ = ("players", "rules")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[TablePlayer]
    rules: ChineseRules
    def __init__(self, players: _Optional[_Iterable[_Union[TablePlayer, _Mapping]]] = ..., rules: _Optional[_Union[ChineseRules, _Mapping]] = ...) -> None: ...

class SeatTotal(_message.Message):
    __slots__ = ("seat", "units", "fouled", "foul_reason", "natural", "available_natural")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    FOULED_FIELD_NUMBER: _ClassVar[int]
    FOUL_REASON_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_NATURAL_FIELD_NUMBER: _ClassVar[int]
    seat: str
    units: int
    fouled: bool
    foul_reason: str
    natural: Natural
    available_natural: Natural
    def __init__(self, seat: _Optional[str] = ..., units: _Optional[int] = ..., fouled: _Optional[bool] = ..., foul_reason: _Optional[str] = ..., natural: _Optional[_Union[Natural, _Mapping]] = ..., available_natural: _Optional[_Union[Natural, _Mapping]] = ...) -> None: ...

class Pairing(_message.Message):
    __slots__ = ("seat", "opponent", "units", "rows", "bonus", "settlement", "notes")
    class RowOutcome(_message.Message):
        __slots__ = ("row", "outcome", "units")
        ROW_FIELD_NUMBER: _ClassVar[int]
        OUTCOME_FIELD_NUMBER: _ClassVar[int]
        UNITS_FIELD_NUMBER: _ClassVar[int]
        row: Row
        outcome: Outcome
        units: int
        def __init__(self, row: _Optional[_Union[Row, str]] = ..., outcome: _Optional[_Union[Outcome, str]] = ..., units: _Optional[int] = ...) -> None: ...
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    seat: str
    opponent: str
    units: int
    rows: _containers.RepeatedCompositeFieldContainer[Pairing.RowOutcome]
    bonus: int
    settlement: Settlement
    notes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[str] = ..., opponent: _Optional[str] = ..., units: _Optional[int] = ..., rows: _Optional[_Iterable[_Union[Pairing.RowOutcome, _Mapping]]] = ..., bonus: _Optional[int] = ..., settlement: _Optional[_Union[Settlement, str]] = ..., notes: _Optional[_Iterable[str]] = ...) -> None: ...

class ScoreTableResponse(_message.Message):
    __slots__ = ("totals", "pairings")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    PAIRINGS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedCompositeFieldContainer[SeatTotal]
    pairings: _containers.RepeatedCompositeFieldContainer[Pairing]
    def __init__(self, totals: _Optional[_Iterable[_Union[SeatTotal, _Mapping]]] = ..., pairings: _Optional[_Iterable[_Union[Pairing, _Mapping]]] = ...) -> None: ...

class DealTablesRequest(_message.Message):
    __slots__ = ("seed", "players", "count")
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    seed: int
    players: int
    count: int
    def __init__(self, seed: _Optional[int] = ..., players: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class DealtHand(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[str] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class DealtTable(_message.Message):
    __slots__ = ("seed", "hands")
    SEED_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    hands: _containers.RepeatedCompositeFieldContainer[DealtHand]
    def __init__(self, seed: _Optional[int] = ..., hands: _Optional[_Iterable[_Union[DealtHand, _Mapping]]] = ...) -> None: ...

class DealTablesResponse(_message.Message):
    __slots__ = ("tables",)
    TABLES_FIELD_NUMBER: _ClassVar[int]
    tables: _containers.RepeatedCompositeFieldContainer[DealtTable]
    def __init__(self, tables: _Optional[_Iterable[_Union[DealtTable, _Mapping]]] = ...) -> None: ...

class RateArrangementRequest(_message.Message):
    __slots__ = ("arrangement", "natural", "rules", "estimator", "arrangements", "seed")
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    ESTIMATOR_FIELD_NUMBER: _ClassVar[int]
    ARRANGEMENTS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    arrangement: Arrangement
    natural: TablePlayer.NaturalDeclaration
    rules: ChineseRules
    estimator: str
    arrangements: int
    seed: int
    def __init__(self, arrangement: _Optional[_Union[Arrangement, _Mapping]] = ..., natural: _Optional[_Union[TablePlayer.NaturalDeclaration, _Mapping]] = ..., rules: _Optional[_Union[ChineseRules, _Mapping]] = ..., estimator: _Optional[str] = ..., arrangements: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class RatedRow(_message.Message):
    __slots__ = ("row", "hand", "royalty", "odds", "expected_units")
    ROW_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    ROYALTY_FIELD_NUMBER: _ClassVar[int]
    ODDS_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_UNITS_FIELD_NUMBER: _ClassVar[int]
    row: Row
    hand: Hand
    royalty: int
    odds: RowOdds
    expected_units: float
    def __init__(self, row: _Optional[_Union[Row, str]] = ..., hand: _Optional[_Union[Hand, _Mapping]] = ..., royalty: _Optional[int] = ..., odds: _Optional[_Union[RowOdds, _Mapping]] = ..., expected_units: _Optional[float] = ...) -> None: ...

class RateArrangementResponse(_message.Message):
    __slots__ = ("rows", "natural", "fouled", "foul_reason", "value", "value_interval", "best", "best_rows", "ev_lost", "ev_lost_interval", "rank", "choices", "mistakes", "available_natural", "estimator")
    ROWS_FIELD_NUMBER: _ClassVar[int]
    NATURAL_FIELD_NUMBER: _ClassVar[int]
    FOULED_FIELD_NUMBER: _ClassVar[int]
    FOUL_REASON_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUE_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    BEST_ROWS_FIELD_NUMBER: _ClassVar[int]
    EV_LOST_FIELD_NUMBER: _ClassVar[int]
    EV_LOST_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    MISTAKES_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_NATURAL_FIELD_NUMBER: _ClassVar[int]
    ESTIMATOR_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[RatedRow]
    natural: Natural
    fouled: bool
    foul_reason: str
    value: float
    value_interval: Interval
    best: SolveResponse
    best_rows: _containers.RepeatedCompositeFieldContainer[RatedRow]
    ev_lost: float
    ev_lost_interval: Interval
    rank: int
    choices: int
    mistakes: _containers.RepeatedScalarFieldContainer[str]
    available_natural: Natural
    estimator: str
    def __init__(self, rows: _Optional[_Iterable[_Union[RatedRow, _Mapping]]] = ..., natural: _Optional[_Union[Natural, _Mapping]] = ..., fouled: _Optional[bool] = ..., foul_reason: _Optional[str] = ..., value: _Optional[float] = ..., value_interval: _Optional[_Union[Interval, _Mapping]] = ..., best: _Optional[_Union[SolveResponse, _Mapping]] = ..., best_rows: _Optional[_Iterable[_Union[RatedRow, _Mapping]]] = ..., ev_lost: _Optional[float] = ..., ev_lost_interval: _Optional[_Union[Interval, _Mapping]] = ..., rank: _Optional[int] = ..., choices: _Optional[int] = ..., mistakes: _Optional[_Iterable[str]] = ..., available_natural: _Optional[_Union[Natural, _Mapping]] = ..., estimator: _Optional[str] = ...) -> None: ...

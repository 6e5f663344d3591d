from cpsolver.v1 import cards_pb2 as _cards_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OpenFaceRules(_message.Message):
    __slots__ = ("preset", "variant", "players", "fantasyland", "stay")
    class Variant(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        VARIANT_UNSPECIFIED: _ClassVar[OpenFaceRules.Variant]
        VARIANT_PINEAPPLE: _ClassVar[OpenFaceRules.Variant]
        VARIANT_CLASSIC: _ClassVar[OpenFaceRules.Variant]
    VARIANT_UNSPECIFIED: OpenFaceRules.Variant
    VARIANT_PINEAPPLE: OpenFaceRules.Variant
    VARIANT_CLASSIC: OpenFaceRules.Variant
    class Fantasyland(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        FANTASYLAND_UNSPECIFIED: _ClassVar[OpenFaceRules.Fantasyland]
        FANTASYLAND_STANDARD: _ClassVar[OpenFaceRules.Fantasyland]
        FANTASYLAND_PROGRESSIVE: _ClassVar[OpenFaceRules.Fantasyland]
    FANTASYLAND_UNSPECIFIED: OpenFaceRules.Fantasyland
    FANTASYLAND_STANDARD: OpenFaceRules.Fantasyland
    FANTASYLAND_PROGRESSIVE: OpenFaceRules.Fantasyland
    class Stay(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        STAY_UNSPECIFIED: _ClassVar[OpenFaceRules.Stay]
        STAY_DEFAULT: _ClassVar[OpenFaceRules.Stay]
        STAY_NO_MIDDLE: _ClassVar[OpenFaceRules.Stay]
        STAY_QUADS_MIDDLE: _ClassVar[OpenFaceRules.Stay]
    STAY_UNSPECIFIED: OpenFaceRules.Stay
    STAY_DEFAULT: OpenFaceRules.Stay
    STAY_NO_MIDDLE: OpenFaceRules.Stay
    STAY_QUADS_MIDDLE: OpenFaceRules.Stay
    PRESET_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    FANTASYLAND_FIELD_NUMBER: _ClassVar[int]
    STAY_FIELD_NUMBER: _ClassVar[int]
    preset: str
    variant: OpenFaceRules.Variant
    players: int
    fantasyland: OpenFaceRules.Fantasyland
    stay: OpenFaceRules.Stay
    def __init__(self, preset: _Optional[str] = ..., variant: _Optional[_Union[OpenFaceRules.Variant, str]] = ..., players: _Optional[int] = ..., fantasyland: _Optional[_Union[OpenFaceRules.Fantasyland, str]] = ..., stay: _Optional[_Union[OpenFaceRules.Stay, str]] = ...) -> None: ...

class OpenFaceBoard(_message.Message):
    __slots__ = ("back", "middle", "front", "fantasyland")
    BACK_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    FRONT_FIELD_NUMBER: _ClassVar[int]
    FANTASYLAND_FIELD_NUMBER: _ClassVar[int]
    back: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    middle: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    front: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    fantasyland: bool
    def __init__(self, back: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., middle: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., front: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., fantasyland: _Optional[bool] = ...) -> None: ...

class OpenFaceSeat(_message.Message):
    __slots__ = ("seat", "board")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    seat: str
    board: OpenFaceBoard
    def __init__(self, seat: _Optional[str] = ..., board: _Optional[_Union[OpenFaceBoard, _Mapping]] = ...) -> None: ...

class ScoreOpenFaceRequest(_message.Message):
    __slots__ = ("rules", "players")
    RULES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    rules: OpenFaceRules
    players: _containers.RepeatedCompositeFieldContainer[OpenFaceSeat]
    def __init__(self, rules: _Optional[_Union[OpenFaceRules, _Mapping]] = ..., players: _Optional[_Iterable[_Union[OpenFaceSeat, _Mapping]]] = ...) -> None: ...

class ScoredOpenFaceBoard(_message.Message):
    __slots__ = ("seat", "royalties", "back_royalty", "middle_royalty", "front_royalty", "fouled", "foul_reason", "fantasyland", "net")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROYALTIES_FIELD_NUMBER: _ClassVar[int]
    BACK_ROYALTY_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_ROYALTY_FIELD_NUMBER: _ClassVar[int]
    FRONT_ROYALTY_FIELD_NUMBER: _ClassVar[int]
    FOULED_FIELD_NUMBER: _ClassVar[int]
    FOUL_REASON_FIELD_NUMBER: _ClassVar[int]
    FANTASYLAND_FIELD_NUMBER: _ClassVar[int]
    NET_FIELD_NUMBER: _ClassVar[int]
    seat: str
    royalties: int
    back_royalty: int
    middle_royalty: int
    front_royalty: int
    fouled: bool
    foul_reason: str
    fantasyland: int
    net: int
    def __init__(self, seat: _Optional[str] = ..., royalties: _Optional[int] = ..., back_royalty: _Optional[int] = ..., middle_royalty: _Optional[int] = ..., front_royalty: _Optional[int] = ..., fouled: _Optional[bool] = ..., foul_reason: _Optional[str] = ..., fantasyland: _Optional[int] = ..., net: _Optional[int] = ...) -> None: ...

class OpenFacePairing(_message.Message):
    __slots__ = ("first_seat", "second_seat", "back", "middle", "front", "scoop", "royalties", "total")
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    SECOND_SEAT_FIELD_NUMBER: _ClassVar[int]
    BACK_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    FRONT_FIELD_NUMBER: _ClassVar[int]
    SCOOP_FIELD_NUMBER: _ClassVar[int]
    ROYALTIES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    first_seat: str
    second_seat: str
    back: int
    middle: int
    front: int
    scoop: int
    royalties: int
    total: int
    def __init__(self, first_seat: _Optional[str] = ..., second_seat: _Optional[str] = ..., back: _Optional[int] = ..., middle: _Optional[int] = ..., front: _Optional[int] = ..., scoop: _Optional[int] = ..., royalties: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class ScoreOpenFaceResponse(_message.Message):
    __slots__ = ("players", "pairings", "rules")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PAIRINGS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[ScoredOpenFaceBoard]
    pairings: _containers.RepeatedCompositeFieldContainer[OpenFacePairing]
    rules: OpenFaceRules
    def __init__(self, players: _Optional[_Iterable[_Union[ScoredOpenFaceBoard, _Mapping]]] = ..., pairings: _Optional[_Iterable[_Union[OpenFacePairing, _Mapping]]] = ..., rules: _Optional[_Union[OpenFaceRules, _Mapping]] = ...) -> None: ...

class SetFantasylandRequest(_message.Message):
    __slots__ = ("rules", "cards", "objective", "fantasyland_value", "samples", "seed")
    RULES_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    FANTASYLAND_VALUE_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    rules: OpenFaceRules
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    objective: str
    fantasyland_value: float
    samples: int
    seed: int
    def __init__(self, rules: _Optional[_Union[OpenFaceRules, _Mapping]] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., objective: _Optional[str] = ..., fantasyland_value: _Optional[float] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class SetFantasylandResponse(_message.Message):
    __slots__ = ("back", "middle", "front", "discarded", "royalties", "stays", "value", "fantasyland_value", "objective", "stderr", "samples", "seed", "opponents", "candidates", "policy")
    BACK_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    FRONT_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    ROYALTIES_FIELD_NUMBER: _ClassVar[int]
    STAYS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    FANTASYLAND_VALUE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    STDERR_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    back: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    middle: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    front: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    discarded: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    royalties: int
    stays: bool
    value: float
    fantasyland_value: float
    objective: str
    stderr: float
    samples: int
    seed: int
    opponents: int
    candidates: int
    policy: str
    def __init__(self, back: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., middle: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., front: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., discarded: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., royalties: _Optional[int] = ..., stays: _Optional[bool] = ..., value: _Optional[float] = ..., fantasyland_value: _Optional[float] = ..., objective: _Optional[str] = ..., stderr: _Optional[float] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., opponents: _Optional[int] = ..., candidates: _Optional[int] = ..., policy: _Optional[str] = ...) -> None: ...

class DealOpenFaceRequest(_message.Message):
    __slots__ = ("rules", "seed")
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    rules: OpenFaceRules
    seed: int
    def __init__(self, rules: _Optional[_Union[OpenFaceRules, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class OpenFaceSeatDeal(_message.Message):
    __slots__ = ("seat", "streets")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STREETS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    streets: _containers.RepeatedCompositeFieldContainer[OpenFaceStreet]
    def __init__(self, seat: _Optional[str] = ..., streets: _Optional[_Iterable[_Union[OpenFaceStreet, _Mapping]]] = ...) -> None: ...

class OpenFaceStreet(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class DealOpenFaceResponse(_message.Message):
    __slots__ = ("seed", "seats")
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    seats: _containers.RepeatedCompositeFieldContainer[OpenFaceSeatDeal]
    def __init__(self, seed: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[OpenFaceSeatDeal, _Mapping]]] = ...) -> None: ...

class AdviseOpenFaceRequest(_message.Message):
    __slots__ = ("rules", "street", "hand", "board", "opponents", "dead", "budget_ms", "samples", "seed", "fantasyland_value", "fills")
    RULES_FIELD_NUMBER: _ClassVar[int]
    STREET_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    DEAD_FIELD_NUMBER: _ClassVar[int]
    BUDGET_MS_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FANTASYLAND_VALUE_FIELD_NUMBER: _ClassVar[int]
    FILLS_FIELD_NUMBER: _ClassVar[int]
    rules: OpenFaceRules
    street: int
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    board: OpenFaceBoard
    opponents: _containers.RepeatedCompositeFieldContainer[OpenFaceBoard]
    dead: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    budget_ms: float
    samples: int
    seed: int
    fantasyland_value: float
    fills: int
    def __init__(self, rules: _Optional[_Union[OpenFaceRules, _Mapping]] = ..., street: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., board: _Optional[_Union[OpenFaceBoard, _Mapping]] = ..., opponents: _Optional[_Iterable[_Union[OpenFaceBoard, _Mapping]]] = ..., dead: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., budget_ms: _Optional[float] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., fantasyland_value: _Optional[float] = ..., fills: _Optional[int] = ...) -> None: ...

class OpenFacePlacementAdvice(_message.Message):
    __slots__ = ("back", "middle", "front", "discard", "value", "stderr", "foul", "fantasyland", "samples")
    BACK_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    FRONT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    STDERR_FIELD_NUMBER: _ClassVar[int]
    FOUL_FIELD_NUMBER: _ClassVar[int]
    FANTASYLAND_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    back: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    middle: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    front: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    discard: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    value: float
    stderr: float
    foul: float
    fantasyland: float
    samples: int
    def __init__(self, back: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., middle: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., front: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., discard: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., value: _Optional[float] = ..., stderr: _Optional[float] = ..., foul: _Optional[float] = ..., fantasyland: _Optional[float] = ..., samples: _Optional[int] = ...) -> None: ...

class AdviseOpenFaceResponse(_message.Message):
    __slots__ = ("ranked", "exact", "fantasyland_value", "policy", "seed", "elapsed_ms")
    RANKED_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    FANTASYLAND_VALUE_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    ranked: _containers.RepeatedCompositeFieldContainer[OpenFacePlacementAdvice]
    exact: bool
    fantasyland_value: float
    policy: str
    seed: int
    elapsed_ms: float
    def __init__(self, ranked: _Optional[_Iterable[_Union[OpenFacePlacementAdvice, _Mapping]]] = ..., exact: _Optional[bool] = ..., fantasyland_value: _Optional[float] = ..., policy: _Optional[str] = ..., seed: _Optional[int] = ..., elapsed_ms: _Optional[float] = ...) -> None: ...

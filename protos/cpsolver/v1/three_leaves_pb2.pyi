from cpsolver.v1 import cards_pb2 as _cards_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class KhlyustClass(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KHLYUST_CLASS_UNSPECIFIED: _ClassVar[KhlyustClass]
    KHLYUST_CLASS_NONE: _ClassVar[KhlyustClass]
    KHLYUST_CLASS_PLAIN: _ClassVar[KhlyustClass]
    KHLYUST_CLASS_THREE_OF_A_RANK: _ClassVar[KhlyustClass]
    KHLYUST_CLASS_TRUMP: _ClassVar[KhlyustClass]

class LeavesOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEAVES_OUTCOME_UNSPECIFIED: _ClassVar[LeavesOutcome]
    LEAVES_OUTCOME_KHLYUST: _ClassVar[LeavesOutcome]
    LEAVES_OUTCOME_PLAYOUT: _ClassVar[LeavesOutcome]
    LEAVES_OUTCOME_TRICKS: _ClassVar[LeavesOutcome]
KHLYUST_CLASS_UNSPECIFIED: KhlyustClass
KHLYUST_CLASS_NONE: KhlyustClass
KHLYUST_CLASS_PLAIN: KhlyustClass
KHLYUST_CLASS_THREE_OF_A_RANK: KhlyustClass
KHLYUST_CLASS_TRUMP: KhlyustClass
LEAVES_OUTCOME_UNSPECIFIED: LeavesOutcome
LEAVES_OUTCOME_KHLYUST: LeavesOutcome
LEAVES_OUTCOME_PLAYOUT: LeavesOutcome
LEAVES_OUTCOME_TRICKS: LeavesOutcome

class ThreeLeavesRules(_message.Message):
    __slots__ = ("preset", "players", "deck", "khlyust_after_exchange", "class_order", "draw_source", "draw_applies_to", "zero_tricks", "void", "ante", "share", "flop_penalty")
    class ClassOrder(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        CLASS_ORDER_UNSPECIFIED: _ClassVar[ThreeLeavesRules.ClassOrder]
        CLASS_ORDER_TRUMP_FIRST: _ClassVar[ThreeLeavesRules.ClassOrder]
        CLASS_ORDER_TRIPS_FIRST: _ClassVar[ThreeLeavesRules.ClassOrder]
    CLASS_ORDER_UNSPECIFIED: ThreeLeavesRules.ClassOrder
    CLASS_ORDER_TRUMP_FIRST: ThreeLeavesRules.ClassOrder
    CLASS_ORDER_TRIPS_FIRST: ThreeLeavesRules.ClassOrder
    class DrawSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        DRAW_SOURCE_UNSPECIFIED: _ClassVar[ThreeLeavesRules.DrawSource]
        DRAW_SOURCE_HOLDER: _ClassVar[ThreeLeavesRules.DrawSource]
        DRAW_SOURCE_STOCK: _ClassVar[ThreeLeavesRules.DrawSource]
    DRAW_SOURCE_UNSPECIFIED: ThreeLeavesRules.DrawSource
    DRAW_SOURCE_HOLDER: ThreeLeavesRules.DrawSource
    DRAW_SOURCE_STOCK: ThreeLeavesRules.DrawSource
    class DrawAppliesTo(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        DRAW_APPLIES_TO_UNSPECIFIED: _ClassVar[ThreeLeavesRules.DrawAppliesTo]
        DRAW_APPLIES_TO_TRUMP_KHLYUST: _ClassVar[ThreeLeavesRules.DrawAppliesTo]
        DRAW_APPLIES_TO_ANY_KHLYUST: _ClassVar[ThreeLeavesRules.DrawAppliesTo]
    DRAW_APPLIES_TO_UNSPECIFIED: ThreeLeavesRules.DrawAppliesTo
    DRAW_APPLIES_TO_TRUMP_KHLYUST: ThreeLeavesRules.DrawAppliesTo
    DRAW_APPLIES_TO_ANY_KHLYUST: ThreeLeavesRules.DrawAppliesTo
    class ZeroTricks(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        ZERO_TRICKS_UNSPECIFIED: _ClassVar[ThreeLeavesRules.ZeroTricks]
        ZERO_TRICKS_PAY_PENALTY: _ClassVar[ThreeLeavesRules.ZeroTricks]
        ZERO_TRICKS_FORFEIT: _ClassVar[ThreeLeavesRules.ZeroTricks]
    ZERO_TRICKS_UNSPECIFIED: ThreeLeavesRules.ZeroTricks
    ZERO_TRICKS_PAY_PENALTY: ThreeLeavesRules.ZeroTricks
    ZERO_TRICKS_FORFEIT: ThreeLeavesRules.ZeroTricks
    class Void(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        VOID_UNSPECIFIED: _ClassVar[ThreeLeavesRules.Void]
        VOID_TRUMP_OR_DISCARD: _ClassVar[ThreeLeavesRules.Void]
        VOID_MUST_TRUMP: _ClassVar[ThreeLeavesRules.Void]
        VOID_DISCARD_ONLY: _ClassVar[ThreeLeavesRules.Void]
    VOID_UNSPECIFIED: ThreeLeavesRules.Void
    VOID_TRUMP_OR_DISCARD: ThreeLeavesRules.Void
    VOID_MUST_TRUMP: ThreeLeavesRules.Void
    VOID_DISCARD_ONLY: ThreeLeavesRules.Void
    PRESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    KHLYUST_AFTER_EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    CLASS_ORDER_FIELD_NUMBER: _ClassVar[int]
    DRAW_SOURCE_FIELD_NUMBER: _ClassVar[int]
    DRAW_APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    ZERO_TRICKS_FIELD_NUMBER: _ClassVar[int]
    VOID_FIELD_NUMBER: _ClassVar[int]
    ANTE_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    FLOP_PENALTY_FIELD_NUMBER: _ClassVar[int]
    preset: str
    players: int
    deck: int
    khlyust_after_exchange: bool
    class_order: ThreeLeavesRules.ClassOrder
    draw_source: ThreeLeavesRules.DrawSource
    draw_applies_to: ThreeLeavesRules.DrawAppliesTo
    zero_tricks: ThreeLeavesRules.ZeroTricks
    void: ThreeLeavesRules.Void
    ante: int
    share: int
    flop_penalty: int
    def __init__(self, preset: _Optional[str] = ..., players: _Optional[int] = ..., deck: _Optional[int] = ..., khlyust_after_exchange: _Optional[bool] = ..., class_order: _Optional[_Union[ThreeLeavesRules.ClassOrder, str]] = ..., draw_source: _Optional[_Union[ThreeLeavesRules.DrawSource, str]] = ..., draw_applies_to: _Optional[_Union[ThreeLeavesRules.DrawAppliesTo, str]] = ..., zero_tricks: _Optional[_Union[ThreeLeavesRules.ZeroTricks, str]] = ..., void: _Optional[_Union[ThreeLeavesRules.Void, str]] = ..., ante: _Optional[int] = ..., share: _Optional[int] = ..., flop_penalty: _Optional[int] = ...) -> None: ...

class Khlyust(_message.Message):
    __slots__ = ("cards", "khlyust_class", "points", "top", "key")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    KHLYUST_CLASS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    khlyust_class: KhlyustClass
    points: int
    top: _cards_pb2.Rank
    key: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., khlyust_class: _Optional[_Union[KhlyustClass, str]] = ..., points: _Optional[int] = ..., top: _Optional[_Union[_cards_pb2.Rank, str]] = ..., key: _Optional[_Iterable[int]] = ...) -> None: ...

class EvaluateKhlyustRequest(_message.Message):
    __slots__ = ("rules", "cards", "trump", "position")
    RULES_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    rules: ThreeLeavesRules
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    trump: _cards_pb2.Suit
    position: int
    def __init__(self, rules: _Optional[_Union[ThreeLeavesRules, _Mapping]] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., position: _Optional[int] = ...) -> None: ...

class KhlyustClaim(_message.Message):
    __slots__ = ("seat", "khlyust", "turn_position")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KHLYUST_FIELD_NUMBER: _ClassVar[int]
    TURN_POSITION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    khlyust: Khlyust
    turn_position: int
    def __init__(self, seat: _Optional[int] = ..., khlyust: _Optional[_Union[Khlyust, _Mapping]] = ..., turn_position: _Optional[int] = ...) -> None: ...

class EvaluateKhlyustResponse(_message.Message):
    __slots__ = ("khlyust",)
    KHLYUST_FIELD_NUMBER: _ClassVar[int]
    khlyust: Khlyust
    def __init__(self, khlyust: _Optional[_Union[Khlyust, _Mapping]] = ...) -> None: ...

class LeafPlay(_message.Message):
    __slots__ = ("seat", "card", "face_down")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    face_down: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., face_down: _Optional[bool] = ...) -> None: ...

class ListLegalLeafPlaysRequest(_message.Message):
    __slots__ = ("rules", "hand", "trump", "trick")
    RULES_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    rules: ThreeLeavesRules
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    trump: _cards_pb2.Suit
    trick: _containers.RepeatedCompositeFieldContainer[LeafPlay]
    def __init__(self, rules: _Optional[_Union[ThreeLeavesRules, _Mapping]] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., trick: _Optional[_Iterable[_Union[LeafPlay, _Mapping]]] = ...) -> None: ...

class LegalLeafPlay(_message.Message):
    __slots__ = ("play", "heads_trick")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    HEADS_TRICK_FIELD_NUMBER: _ClassVar[int]
    play: LeafPlay
    heads_trick: bool
    def __init__(self, play: _Optional[_Union[LeafPlay, _Mapping]] = ..., heads_trick: _Optional[bool] = ...) -> None: ...

class ListLegalLeafPlaysResponse(_message.Message):
    __slots__ = ("plays",)
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[LegalLeafPlay]
    def __init__(self, plays: _Optional[_Iterable[_Union[LegalLeafPlay, _Mapping]]] = ...) -> None: ...

class LeavesHand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class LeavesExchange(_message.Message):
    __slots__ = ("seat", "action", "discard")
    class Action(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        ACTION_UNSPECIFIED: _ClassVar[LeavesExchange.Action]
        ACTION_PLAY: _ClassVar[LeavesExchange.Action]
        ACTION_PASS: _ClassVar[LeavesExchange.Action]
        ACTION_DRAW: _ClassVar[LeavesExchange.Action]
    ACTION_UNSPECIFIED: LeavesExchange.Action
    ACTION_PLAY: LeavesExchange.Action
    ACTION_PASS: LeavesExchange.Action
    ACTION_DRAW: LeavesExchange.Action
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: LeavesExchange.Action
    discard: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[LeavesExchange.Action, str]] = ..., discard: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class PlayLeavesDealRequest(_message.Message):
    __slots__ = ("rules", "hands", "trump_card", "stock", "dealer", "exchanges", "demand_playout", "picks", "plays", "carried_pot", "seed")
    RULES_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CARD_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    EXCHANGES_FIELD_NUMBER: _ClassVar[int]
    DEMAND_PLAYOUT_FIELD_NUMBER: _ClassVar[int]
    PICKS_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    CARRIED_POT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    rules: ThreeLeavesRules
    hands: _containers.RepeatedCompositeFieldContainer[LeavesHand]
    trump_card: _cards_pb2.Card
    stock: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    dealer: int
    exchanges: _containers.RepeatedCompositeFieldContainer[LeavesExchange]
    demand_playout: bool
    picks: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    plays: _containers.RepeatedCompositeFieldContainer[LeafPlay]
    carried_pot: int
    seed: int
    def __init__(self, rules: _Optional[_Union[ThreeLeavesRules, _Mapping]] = ..., hands: _Optional[_Iterable[_Union[LeavesHand, _Mapping]]] = ..., trump_card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., stock: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., dealer: _Optional[int] = ..., exchanges: _Optional[_Iterable[_Union[LeavesExchange, _Mapping]]] = ..., demand_playout: _Optional[bool] = ..., picks: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., plays: _Optional[_Iterable[_Union[LeafPlay, _Mapping]]] = ..., carried_pot: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class LeavesTrick(_message.Message):
    __slots__ = ("leader", "plays", "winner")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    plays: _containers.RepeatedCompositeFieldContainer[LeafPlay]
    winner: int
    def __init__(self, leader: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[LeafPlay, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class LeavesPayment(_message.Message):
    __slots__ = ("payer", "payee", "amount", "reason", "card")
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PAYEE_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    payer: int
    payee: int
    amount: int
    reason: str
    card: _cards_pb2.Card
    def __init__(self, payer: _Optional[int] = ..., payee: _Optional[int] = ..., amount: _Optional[int] = ..., reason: _Optional[str] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class PlayLeavesDealResponse(_message.Message):
    __slots__ = ("outcome", "khlyust_seat", "khlyust", "tricks", "trick_counts", "in_deal", "pot_before", "pot_taken", "pot_after", "payments", "net", "notes", "khlyusts", "exchanges", "hands_played")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    KHLYUST_SEAT_FIELD_NUMBER: _ClassVar[int]
    KHLYUST_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICK_COUNTS_FIELD_NUMBER: _ClassVar[int]
    IN_DEAL_FIELD_NUMBER: _ClassVar[int]
    POT_BEFORE_FIELD_NUMBER: _ClassVar[int]
    POT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    POT_AFTER_FIELD_NUMBER: _ClassVar[int]
    PAYMENTS_FIELD_NUMBER: _ClassVar[int]
    NET_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    KHLYUSTS_FIELD_NUMBER: _ClassVar[int]
    EXCHANGES_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    outcome: LeavesOutcome
    khlyust_seat: int
    khlyust: Khlyust
    tricks: _containers.RepeatedCompositeFieldContainer[LeavesTrick]
    trick_counts: _containers.RepeatedScalarFieldContainer[int]
    in_deal: _containers.RepeatedScalarFieldContainer[bool]
    pot_before: int
    pot_taken: _containers.RepeatedScalarFieldContainer[int]
    pot_after: int
    payments: _containers.RepeatedCompositeFieldContainer[LeavesPayment]
    net: _containers.RepeatedScalarFieldContainer[int]
    notes: _containers.RepeatedScalarFieldContainer[str]
    khlyusts: _containers.RepeatedCompositeFieldContainer[KhlyustClaim]
    exchanges: _containers.RepeatedCompositeFieldContainer[LeavesExchange]
    hands_played: _containers.RepeatedCompositeFieldContainer[LeavesHand]
    def __init__(self, outcome: _Optional[_Union[LeavesOutcome, str]] = ..., khlyust_seat: _Optional[int] = ..., khlyust: _Optional[_Union[Khlyust, _Mapping]] = ..., tricks: _Optional[_Iterable[_Union[LeavesTrick, _Mapping]]] = ..., trick_counts: _Optional[_Iterable[int]] = ..., in_deal: _Optional[_Iterable[bool]] = ..., pot_before: _Optional[int] = ..., pot_taken: _Optional[_Iterable[int]] = ..., pot_after: _Optional[int] = ..., payments: _Optional[_Iterable[_Union[LeavesPayment, _Mapping]]] = ..., net: _Optional[_Iterable[int]] = ..., notes: _Optional[_Iterable[str]] = ..., khlyusts: _Optional[_Iterable[_Union[KhlyustClaim, _Mapping]]] = ..., exchanges: _Optional[_Iterable[_Union[LeavesExchange, _Mapping]]] = ..., hands_played: _Optional[_Iterable[_Union[LeavesHand, _Mapping]]] = ...) -> None: ...

class LeavesEstimate(_message.Message):
    __slots__ = ("value", "low", "high", "exact")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    value: float
    low: float
    high: float
    exact: bool
    def __init__(self, value: _Optional[float] = ..., low: _Optional[float] = ..., high: _Optional[float] = ..., exact: _Optional[bool] = ...) -> None: ...

class LeavesExchangeOption(_message.Message):
    __slots__ = ("action", "discard", "expected_money", "three_tricks", "khlyust")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_MONEY_FIELD_NUMBER: _ClassVar[int]
    THREE_TRICKS_FIELD_NUMBER: _ClassVar[int]
    KHLYUST_FIELD_NUMBER: _ClassVar[int]
    action: str
    discard: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    expected_money: LeavesEstimate
    three_tricks: LeavesEstimate
    khlyust: LeavesEstimate
    def __init__(self, action: _Optional[str] = ..., discard: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., expected_money: _Optional[_Union[LeavesEstimate, _Mapping]] = ..., three_tricks: _Optional[_Union[LeavesEstimate, _Mapping]] = ..., khlyust: _Optional[_Union[LeavesEstimate, _Mapping]] = ...) -> None: ...

class AdviseLeavesRequest(_message.Message):
    __slots__ = ("rules", "hand", "trump_card", "position", "samples", "seed", "exchange", "carried_pot", "skip_odds", "skip_tricks")
    RULES_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CARD_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    CARRIED_POT_FIELD_NUMBER: _ClassVar[int]
    SKIP_ODDS_FIELD_NUMBER: _ClassVar[int]
    SKIP_TRICKS_FIELD_NUMBER: _ClassVar[int]
    rules: ThreeLeavesRules
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    trump_card: _cards_pb2.Card
    position: int
    samples: int
    seed: int
    exchange: bool
    carried_pot: int
    skip_odds: bool
    skip_tricks: bool
    def __init__(self, rules: _Optional[_Union[ThreeLeavesRules, _Mapping]] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., trump_card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., position: _Optional[int] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., exchange: _Optional[bool] = ..., carried_pot: _Optional[int] = ..., skip_odds: _Optional[bool] = ..., skip_tricks: _Optional[bool] = ...) -> None: ...

class AdviseLeavesResponse(_message.Message):
    __slots__ = ("hand", "holding", "facing_any", "beaten", "three_tricks", "two_or_more", "trick_method", "exchange_options", "expected_tricks", "trick_samples", "trick_seed")
    class HoldingEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    HAND_FIELD_NUMBER: _ClassVar[int]
    HOLDING_FIELD_NUMBER: _ClassVar[int]
    FACING_ANY_FIELD_NUMBER: _ClassVar[int]
    BEATEN_FIELD_NUMBER: _ClassVar[int]
    THREE_TRICKS_FIELD_NUMBER: _ClassVar[int]
    TWO_OR_MORE_FIELD_NUMBER: _ClassVar[int]
    TRICK_METHOD_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICK_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    TRICK_SEED_FIELD_NUMBER: _ClassVar[int]
    hand: Khlyust
    holding: _containers.ScalarMap[str, float]
    facing_any: float
    beaten: float
    three_tricks: LeavesEstimate
    two_or_more: LeavesEstimate
    trick_method: str
    exchange_options: _containers.RepeatedCompositeFieldContainer[LeavesExchangeOption]
    expected_tricks: LeavesEstimate
    trick_samples: int
    trick_seed: int
    def __init__(self, hand: _Optional[_Union[Khlyust, _Mapping]] = ..., holding: _Optional[_Mapping[str, float]] = ..., facing_any: _Optional[float] = ..., beaten: _Optional[float] = ..., three_tricks: _Optional[_Union[LeavesEstimate, _Mapping]] = ..., two_or_more: _Optional[_Union[LeavesEstimate, _Mapping]] = ..., trick_method: _Optional[str] = ..., exchange_options: _Optional[_Iterable[_Union[LeavesExchangeOption, _Mapping]]] = ..., expected_tricks: _Optional[_Union[LeavesEstimate, _Mapping]] = ..., trick_samples: _Optional[int] = ..., trick_seed: _Optional[int] = ...) -> None: ...

class ResolveLeavesDealRequest(_message.Message):
    __slots__ = ("rules", "hands", "trump_card", "stock", "dealer")
    RULES_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CARD_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    rules: ThreeLeavesRules
    hands: _containers.RepeatedCompositeFieldContainer[LeavesHand]
    trump_card: _cards_pb2.Card
    stock: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    dealer: int
    def __init__(self, rules: _Optional[_Union[ThreeLeavesRules, _Mapping]] = ..., hands: _Optional[_Iterable[_Union[LeavesHand, _Mapping]]] = ..., trump_card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., stock: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., dealer: _Optional[int] = ...) -> None: ...

class ResolveLeavesDealResponse(_message.Message):
    __slots__ = ("khlyusts", "winner", "dealer", "assistant")
    KHLYUSTS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    ASSISTANT_FIELD_NUMBER: _ClassVar[int]
    khlyusts: _containers.RepeatedCompositeFieldContainer[KhlyustClaim]
    winner: int
    dealer: int
    assistant: int
    def __init__(self, khlyusts: _Optional[_Iterable[_Union[KhlyustClaim, _Mapping]]] = ..., winner: _Optional[int] = ..., dealer: _Optional[int] = ..., assistant: _Optional[int] = ...) -> None: ...

class DealLeavesRequest(_message.Message):
    __slots__ = ("rules", "seed", "dealer")
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    rules: ThreeLeavesRules
    seed: int
    dealer: int
    def __init__(self, rules: _Optional[_Union[ThreeLeavesRules, _Mapping]] = ..., seed: _Optional[int] = ..., dealer: _Optional[int] = ...) -> None: ...

class DealLeavesResponse(_message.Message):
    __slots__ = ("hands", "trump_card", "stock", "dealer", "assistant")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CARD_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    ASSISTANT_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[LeavesHand]
    trump_card: _cards_pb2.Card
    stock: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    dealer: int
    assistant: int
    def __init__(self, hands: _Optional[_Iterable[_Union[LeavesHand, _Mapping]]] = ..., trump_card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., stock: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., dealer: _Optional[int] = ..., assistant: _Optional[int] = ...) -> None: ...

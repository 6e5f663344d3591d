from cpsolver.v1 import cards_pb2 as _cards_pb2
from cpsolver.v1 import chinese_poker_pb2 as _chinese_poker_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ChlustSetCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHLUST_SET_CATEGORY_UNSPECIFIED: _ClassVar[ChlustSetCategory]
    CHLUST_SET_CATEGORY_NONE: _ClassVar[ChlustSetCategory]
    CHLUST_SET_CATEGORY_THREE_OF_A_RANK: _ClassVar[ChlustSetCategory]
    CHLUST_SET_CATEGORY_FLUSH: _ClassVar[ChlustSetCategory]
    CHLUST_SET_CATEGORY_THREE_JACKS: _ClassVar[ChlustSetCategory]

class WildRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WILD_ROLE_UNSPECIFIED: _ClassVar[WildRole]
    WILD_ROLE_ABSENT: _ClassVar[WildRole]
    WILD_ROLE_ITSELF: _ClassVar[WildRole]
    WILD_ROLE_SUBSTITUTE: _ClassVar[WildRole]
    WILD_ROLE_UNUSED: _ClassVar[WildRole]

class OddsMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ODDS_METHOD_UNSPECIFIED: _ClassVar[OddsMethod]
    ODDS_METHOD_EXACT: _ClassVar[OddsMethod]
    ODDS_METHOD_MONTE_CARLO: _ClassVar[OddsMethod]

class BidAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BID_ACTION_UNSPECIFIED: _ClassVar[BidAction]
    BID_ACTION_FOLD: _ClassVar[BidAction]
    BID_ACTION_CHECK: _ClassVar[BidAction]
    BID_ACTION_CALL: _ClassVar[BidAction]
    BID_ACTION_RAISE: _ClassVar[BidAction]
CHLUST_SET_CATEGORY_UNSPECIFIED: ChlustSetCategory
CHLUST_SET_CATEGORY_NONE: ChlustSetCategory
CHLUST_SET_CATEGORY_THREE_OF_A_RANK: ChlustSetCategory
CHLUST_SET_CATEGORY_FLUSH: ChlustSetCategory
CHLUST_SET_CATEGORY_THREE_JACKS: ChlustSetCategory
WILD_ROLE_UNSPECIFIED: WildRole
WILD_ROLE_ABSENT: WildRole
WILD_ROLE_ITSELF: WildRole
WILD_ROLE_SUBSTITUTE: WildRole
WILD_ROLE_UNUSED: WildRole
ODDS_METHOD_UNSPECIFIED: OddsMethod
ODDS_METHOD_EXACT: OddsMethod
ODDS_METHOD_MONTE_CARLO: OddsMethod
BID_ACTION_UNSPECIFIED: BidAction
BID_ACTION_FOLD: BidAction
BID_ACTION_CHECK: BidAction
BID_ACTION_CALL: BidAction
BID_ACTION_RAISE: BidAction

class ChlustRules(_message.Message):
    __slots__ = ("preset", "players", "deck", "wild_shift", "purity", "underruff", "trick_tie", "ante", "raise_unit", "max_raises")
    class WildShift(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        WILD_SHIFT_UNSPECIFIED: _ClassVar[ChlustRules.WildShift]
        WILD_SHIFT_CLUBS_TRUMP: _ClassVar[ChlustRules.WildShift]
        WILD_SHIFT_INDICATOR_ONLY: _ClassVar[ChlustRules.WildShift]
    WILD_SHIFT_UNSPECIFIED: ChlustRules.WildShift
    WILD_SHIFT_CLUBS_TRUMP: ChlustRules.WildShift
    WILD_SHIFT_INDICATOR_ONLY: ChlustRules.WildShift
    class Purity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PURITY_UNSPECIFIED: _ClassVar[ChlustRules.Purity]
        PURITY_SAME_SUIT_ONLY: _ClassVar[ChlustRules.Purity]
        PURITY_WITHIN_CATEGORY: _ClassVar[ChlustRules.Purity]
        PURITY_GLOBAL: _ClassVar[ChlustRules.Purity]
    PURITY_UNSPECIFIED: ChlustRules.Purity
    PURITY_SAME_SUIT_ONLY: ChlustRules.Purity
    PURITY_WITHIN_CATEGORY: ChlustRules.Purity
    PURITY_GLOBAL: ChlustRules.Purity
    class Underruff(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        UNDERRUFF_UNSPECIFIED: _ClassVar[ChlustRules.Underruff]
        UNDERRUFF_MUST_TRUMP: _ClassVar[ChlustRules.Underruff]
        UNDERRUFF_MAY_DISCARD: _ClassVar[ChlustRules.Underruff]
    UNDERRUFF_UNSPECIFIED: ChlustRules.Underruff
    UNDERRUFF_MUST_TRUMP: ChlustRules.Underruff
    UNDERRUFF_MAY_DISCARD: ChlustRules.Underruff
    class TrickTie(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        TRICK_TIE_UNSPECIFIED: _ClassVar[ChlustRules.TrickTie]
        TRICK_TIE_CARRY: _ClassVar[ChlustRules.TrickTie]
        TRICK_TIE_SPLIT: _ClassVar[ChlustRules.TrickTie]
        TRICK_TIE_THIRDS: _ClassVar[ChlustRules.TrickTie]
    TRICK_TIE_UNSPECIFIED: ChlustRules.TrickTie
    TRICK_TIE_CARRY: ChlustRules.TrickTie
    TRICK_TIE_SPLIT: ChlustRules.TrickTie
    TRICK_TIE_THIRDS: ChlustRules.TrickTie
    PRESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    WILD_SHIFT_FIELD_NUMBER: _ClassVar[int]
    PURITY_FIELD_NUMBER: _ClassVar[int]
    UNDERRUFF_FIELD_NUMBER: _ClassVar[int]
    TRICK_TIE_FIELD_NUMBER: _ClassVar[int]
    ANTE_FIELD_NUMBER: _ClassVar[int]
    RAISE_UNIT_FIELD_NUMBER: _ClassVar[int]
    MAX_RAISES_FIELD_NUMBER: _ClassVar[int]
    preset: str
    players: int
    deck: int
    wild_shift: ChlustRules.WildShift
    purity: ChlustRules.Purity
    underruff: ChlustRules.Underruff
    trick_tie: ChlustRules.TrickTie
    ante: int
    raise_unit: int
    max_raises: int
    def __init__(self, preset: _Optional[str] = ..., players: _Optional[int] = ..., deck: _Optional[int] = ..., wild_shift: _Optional[_Union[ChlustRules.WildShift, str]] = ..., purity: _Optional[_Union[ChlustRules.Purity, str]] = ..., underruff: _Optional[_Union[ChlustRules.Underruff, str]] = ..., trick_tie: _Optional[_Union[ChlustRules.TrickTie, str]] = ..., ante: _Optional[int] = ..., raise_unit: _Optional[int] = ..., max_raises: _Optional[int] = ...) -> None: ...

class ChlustSet(_message.Message):
    __slots__ = ("cards", "category", "pure", "wild", "wild_role", "stands_for", "set_cards", "suit", "rank", "key", "name")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    PURE_FIELD_NUMBER: _ClassVar[int]
    WILD_FIELD_NUMBER: _ClassVar[int]
    WILD_ROLE_FIELD_NUMBER: _ClassVar[int]
    STANDS_FOR_FIELD_NUMBER: _ClassVar[int]
    SET_CARDS_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    category: ChlustSetCategory
    pure: bool
    wild: _cards_pb2.Card
    wild_role: WildRole
    stands_for: _cards_pb2.Card
    set_cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    suit: _cards_pb2.Suit
    rank: _cards_pb2.Rank
    key: int
    name: str
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., category: _Optional[_Union[ChlustSetCategory, str]] = ..., pure: _Optional[bool] = ..., wild: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., wild_role: _Optional[_Union[WildRole, str]] = ..., stands_for: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., set_cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., suit: _Optional[_Union[_cards_pb2.Suit, str]] = ..., rank: _Optional[_Union[_cards_pb2.Rank, str]] = ..., key: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class ChlustHand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class EvaluateSetRequest(_message.Message):
    __slots__ = ("cards", "trump", "rules", "turned")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    trump: _cards_pb2.Suit
    rules: ChlustRules
    turned: _cards_pb2.Card
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ..., turned: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class EvaluateSetResponse(_message.Message):
    __slots__ = ("set",)
    SET_FIELD_NUMBER: _ClassVar[int]
    set: ChlustSet
    def __init__(self, set: _Optional[_Union[ChlustSet, _Mapping]] = ...) -> None: ...

class ShowdownRequest(_message.Message):
    __slots__ = ("hands", "trump", "rules", "turned")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[ChlustHand]
    trump: _cards_pb2.Suit
    rules: ChlustRules
    turned: _cards_pb2.Card
    def __init__(self, hands: _Optional[_Iterable[_Union[ChlustHand, _Mapping]]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ..., turned: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class SeatGroup(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class ShowdownResponse(_message.Message):
    __slots__ = ("sets", "ranking", "winner", "needs_tricks")
    SETS_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    NEEDS_TRICKS_FIELD_NUMBER: _ClassVar[int]
    sets: _containers.RepeatedCompositeFieldContainer[ChlustSet]
    ranking: _containers.RepeatedCompositeFieldContainer[SeatGroup]
    winner: int
    needs_tricks: bool
    def __init__(self, sets: _Optional[_Iterable[_Union[ChlustSet, _Mapping]]] = ..., ranking: _Optional[_Iterable[_Union[SeatGroup, _Mapping]]] = ..., winner: _Optional[int] = ..., needs_tricks: _Optional[bool] = ...) -> None: ...

class LegalPlaysRequest(_message.Message):
    __slots__ = ("hand", "trick", "trump", "rules")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    trick: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    trump: _cards_pb2.Suit
    rules: ChlustRules
    def __init__(self, hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., trick: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ...) -> None: ...

class LegalPlaysResponse(_message.Message):
    __slots__ = ("legal",)
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    legal: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, legal: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class PlayDealRequest(_message.Message):
    __slots__ = ("hands", "trump", "plays", "dealer", "folded", "turned", "rules")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    FOLDED_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[ChlustHand]
    trump: _cards_pb2.Suit
    plays: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    dealer: int
    folded: _containers.RepeatedScalarFieldContainer[int]
    turned: _cards_pb2.Card
    rules: ChlustRules
    def __init__(self, hands: _Optional[_Iterable[_Union[ChlustHand, _Mapping]]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., plays: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., dealer: _Optional[int] = ..., folded: _Optional[_Iterable[int]] = ..., turned: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ...) -> None: ...

class TrickPlay(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class TrickResult(_message.Message):
    __slots__ = ("leader", "plays", "winner")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    plays: _containers.RepeatedCompositeFieldContainer[TrickPlay]
    winner: int
    def __init__(self, leader: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[TrickPlay, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class SeatResult(_message.Message):
    __slots__ = ("seat", "tricks", "share_numerator", "share_denominator")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    SHARE_NUMERATOR_FIELD_NUMBER: _ClassVar[int]
    SHARE_DENOMINATOR_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tricks: int
    share_numerator: int
    share_denominator: int
    def __init__(self, seat: _Optional[int] = ..., tricks: _Optional[int] = ..., share_numerator: _Optional[int] = ..., share_denominator: _Optional[int] = ...) -> None: ...

class PlayDealResponse(_message.Message):
    __slots__ = ("tricks", "seats", "winners", "carried_numerator", "carried_denominator")
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    CARRIED_NUMERATOR_FIELD_NUMBER: _ClassVar[int]
    CARRIED_DENOMINATOR_FIELD_NUMBER: _ClassVar[int]
    tricks: _containers.RepeatedCompositeFieldContainer[TrickResult]
    seats: _containers.RepeatedCompositeFieldContainer[SeatResult]
    winners: _containers.RepeatedScalarFieldContainer[int]
    carried_numerator: int
    carried_denominator: int
    def __init__(self, tricks: _Optional[_Iterable[_Union[TrickResult, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., carried_numerator: _Optional[int] = ..., carried_denominator: _Optional[int] = ...) -> None: ...

class ShowdownOddsRequest(_message.Message):
    __slots__ = ("hand", "trump", "opponents", "rules", "turned", "dead", "exact_limit", "samples", "seed")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    DEAD_FIELD_NUMBER: _ClassVar[int]
    EXACT_LIMIT_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    trump: _cards_pb2.Suit
    opponents: int
    rules: ChlustRules
    turned: _cards_pb2.Card
    dead: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    exact_limit: int
    samples: int
    seed: int
    def __init__(self, hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., opponents: _Optional[int] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ..., turned: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., dead: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., exact_limit: _Optional[int] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class ShowdownOddsResponse(_message.Message):
    __slots__ = ("win", "lose", "tricks", "method", "deals", "win_ci", "lose_ci", "tricks_ci", "seed")
    WIN_FIELD_NUMBER: _ClassVar[int]
    LOSE_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    WIN_CI_FIELD_NUMBER: _ClassVar[int]
    LOSE_CI_FIELD_NUMBER: _ClassVar[int]
    TRICKS_CI_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    win: float
    lose: float
    tricks: float
    method: OddsMethod
    deals: int
    win_ci: _chinese_poker_pb2.Interval
    lose_ci: _chinese_poker_pb2.Interval
    tricks_ci: _chinese_poker_pb2.Interval
    seed: int
    def __init__(self, win: _Optional[float] = ..., lose: _Optional[float] = ..., tricks: _Optional[float] = ..., method: _Optional[_Union[OddsMethod, str]] = ..., deals: _Optional[int] = ..., win_ci: _Optional[_Union[_chinese_poker_pb2.Interval, _Mapping]] = ..., lose_ci: _Optional[_Union[_chinese_poker_pb2.Interval, _Mapping]] = ..., tricks_ci: _Optional[_Union[_chinese_poker_pb2.Interval, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class ExchangeRequest(_message.Message):
    __slots__ = ("hands", "turned", "rules")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[ChlustHand]
    turned: _cards_pb2.Card
    rules: ChlustRules
    def __init__(self, hands: _Optional[_Iterable[_Union[ChlustHand, _Mapping]]] = ..., turned: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ...) -> None: ...

class ExchangeResponse(_message.Message):
    __slots__ = ("seat", "hands", "turned")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hands: _containers.RepeatedCompositeFieldContainer[ChlustHand]
    turned: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., hands: _Optional[_Iterable[_Union[ChlustHand, _Mapping]]] = ..., turned: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class BidRequest(_message.Message):
    __slots__ = ("players", "dealer", "actions", "rules")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    players: int
    dealer: int
    actions: _containers.RepeatedScalarFieldContainer[BidAction]
    rules: ChlustRules
    def __init__(self, players: _Optional[int] = ..., dealer: _Optional[int] = ..., actions: _Optional[_Iterable[_Union[BidAction, str]]] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ...) -> None: ...

class BidRecord(_message.Message):
    __slots__ = ("seat", "action", "paid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    PAID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: BidAction
    paid: int
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[BidAction, str]] = ..., paid: _Optional[int] = ...) -> None: ...

class BidResponse(_message.Message):
    __slots__ = ("history", "in_play", "pot", "over", "to_act", "winner", "legal")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    IN_PLAY_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[BidRecord]
    in_play: _containers.RepeatedScalarFieldContainer[int]
    pot: int
    over: bool
    to_act: int
    winner: int
    legal: _containers.RepeatedScalarFieldContainer[BidAction]
    def __init__(self, history: _Optional[_Iterable[_Union[BidRecord, _Mapping]]] = ..., in_play: _Optional[_Iterable[int]] = ..., pot: _Optional[int] = ..., over: _Optional[bool] = ..., to_act: _Optional[int] = ..., winner: _Optional[int] = ..., legal: _Optional[_Iterable[_Union[BidAction, str]]] = ...) -> None: ...

class TrickRecord(_message.Message):
    __slots__ = ("leader", "cards")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class AdvisePlayRequest(_message.Message):
    __slots__ = ("hand", "trump", "seat", "seats", "history", "trick", "turned", "samples", "seed", "rules")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    trump: _cards_pb2.Suit
    seat: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    history: _containers.RepeatedCompositeFieldContainer[TrickRecord]
    trick: TrickRecord
    turned: _cards_pb2.Card
    samples: int
    seed: int
    rules: ChlustRules
    def __init__(self, hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., seat: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., history: _Optional[_Iterable[_Union[TrickRecord, _Mapping]]] = ..., trick: _Optional[_Union[TrickRecord, _Mapping]] = ..., turned: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ...) -> None: ...

class CardValue(_message.Message):
    __slots__ = ("card", "tricks", "ci95")
    CARD_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    CI95_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    tricks: float
    ci95: float
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., tricks: _Optional[float] = ..., ci95: _Optional[float] = ...) -> None: ...

class AdvisePlayResponse(_message.Message):
    __slots__ = ("card", "values", "method", "deals", "seed")
    CARD_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    values: _containers.RepeatedCompositeFieldContainer[CardValue]
    method: OddsMethod
    deals: int
    seed: int
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., values: _Optional[_Iterable[_Union[CardValue, _Mapping]]] = ..., method: _Optional[_Union[OddsMethod, str]] = ..., deals: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class DealHandsRequest(_message.Message):
    __slots__ = ("players", "dealer", "seed", "rules")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    players: int
    dealer: int
    seed: int
    rules: ChlustRules
    def __init__(self, players: _Optional[int] = ..., dealer: _Optional[int] = ..., seed: _Optional[int] = ..., rules: _Optional[_Union[ChlustRules, _Mapping]] = ...) -> None: ...

class DealHandsResponse(_message.Message):
    __slots__ = ("hands", "turned", "dealer", "stock", "exchange_seat")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_SEAT_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[ChlustHand]
    turned: _cards_pb2.Card
    dealer: int
    stock: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    exchange_seat: int
    def __init__(self, hands: _Optional[_Iterable[_Union[ChlustHand, _Mapping]]] = ..., turned: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., dealer: _Optional[int] = ..., stock: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., exchange_seat: _Optional[int] = ...) -> None: ...

"""Open-face Chinese poker, Pineapple and classic (RULES §5): scoring, fantasyland, advice.

The rows, hands and strength scale are Chinese poker's (:mod:`cpsolver.evaluator.poker`); the
OFC rules (royalties, fantasyland) are the rule set's, :class:`cpsolver.rules.ofc.OfcRules`.

>>> from cpsolver import ofc
>>> e1 = {"back": "2s 2h 2d 2c Ks", "middle": "As Ah Ad Kh Kd", "front": "Qs Qh 3c"}
>>> fouled = {"back": "9c 8c 7d 6d 4h", "middle": "Tc 9d 8d 5h 3h", "front": "Jh 7h 3d"}
>>> ofc.score({"A": e1, "B": fouled}).net
(35, -35)
"""

from cpsolver.ofc.advice import Advice, RankedPlacement, advise
from cpsolver.ofc.board import Board, read_board
from cpsolver.ofc.deal import OfcDeal, deal
from cpsolver.ofc.fantasyland import EvEstimate, FantasylandSet, estimate_ev, fantasyland
from cpsolver.ofc.position import Placement, Position, legal_placements, read_position
from cpsolver.ofc.scoring import BoardResult, TableResult, evaluate_board, score, settle_pair
from cpsolver.rules.ofc import OfcRules

__all__ = [
    "Advice",
    "Board",
    "BoardResult",
    "EvEstimate",
    "FantasylandSet",
    "OfcDeal",
    "OfcRules",
    "Placement",
    "Position",
    "RankedPlacement",
    "TableResult",
    "advise",
    "deal",
    "estimate_ev",
    "evaluate_board",
    "fantasyland",
    "legal_placements",
    "read_board",
    "read_position",
    "score",
    "settle_pair",
]

"""The words of scoring, each a `StrEnum` whose value is the string on the wire."""

from __future__ import annotations

import enum


class Direction(enum.StrEnum):
    """The side a pair sat on a board."""

    NS = "NS"
    EW = "EW"


class Fault(enum.StrEnum):
    """A side's responsibility for the irregularity that left a board without a result
    (Law 12C2(a)): its artificial adjusted score follows from it."""

    NONE = "not_at_fault"  # average plus
    PARTLY = "partly_at_fault"  # average
    DIRECTLY = "directly_at_fault"  # average minus


class ResultKind(enum.StrEnum):
    """What a traveller's line holds: a score played, or the Director's adjusted score."""

    PLAYED = "played"
    CORRECTED = "corrected"  # a result corrected by the Director (an agreed score mis-entered)
    ASSIGNED = "assigned"  # Law 12C1(b)
    WEIGHTED = "weighted"  # Law 12C1(c)
    SPLIT = "split"  # each side its own (Law 12C1(b): the scores need not balance)
    ARTIFICIAL = "artificial"  # Law 12C2


class Scoring(enum.StrEnum):
    """How a pairs event compares the results of a board."""

    MATCHPOINTS = "matchpoints"  # Law 78A, Neuberg where a board has fewer results
    CROSS_IMPS = "cross_imps"  # Law 78B, each result against every other
    BUTLER = "butler"  # Law 78B, each result against a datum


class TeamScoring(enum.StrEnum):
    """How a teams event scores its matches (Law 78D: the conditions of contest choose)."""

    VP = "vp"  # Law 78B's IMPs a board, the match's margin to VPs
    BOARD_A_MATCH = "board_a_match"  # 1, ½ or 0 a board on the two rooms' total
    AGGREGATE = "aggregate"  # Law 78C: total points


class PenaltyUnit(enum.StrEnum):
    """What a procedural penalty (Law 90) is given in."""

    PERCENT = "percent"  # of a top on the board, in matchpoints
    IMPS = "imps"

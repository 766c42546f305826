"""The words of the core: every value a board's state, an alert or a ruling spells as text.

Each is a `StrEnum`: a member is the `str` it stands for (`BoardStatus.AUCTION == "auction"`,
`str()`, `format()`, JSON and msgpack give its value), so the wire format is the text it always
was, and the code names a word once. The rulesets and the rulings' actions are the events'
own words (`shared.events.Ruleset`, `shared.events.RulingAction`).
"""

from __future__ import annotations

import enum


class BoardStatus(enum.StrEnum):
    """Where a board's auction stands (a board's `status`)."""

    AUCTION = "auction"
    CLOSED = "closed"  # a contract (Law 22B): the opening lead is awaited, or the play goes on
    PASSED_OUT = "passed_out"  # four passes (Law 22A)


class TableStatus(enum.StrEnum):
    """Where a table stands in a tournament's overview (`shared.table.table_summary`): a
    board's status while its auction lasts, its play, else waiting for its first board, held by
    the director before the round's next one, or done."""

    WAITING = "waiting"  # no board yet
    AUCTION = "auction"
    CLOSED = "closed"  # the opening lead is awaited
    PLAY = "play"  # the play of the hand goes on
    HELD = "held"  # the round's next board waits for the director
    DONE = "done"  # the round's last board, or a board started by hand, is over; or the
    # clock ended the round (its unfinished board stays as it stood)


class Irregularity(enum.StrEnum):
    """The `kind` of a director alert: the irregularity it reports, with the Law that governs
    it (duplicate; the rubber section in the alert's `law`). An irregular call left `pending`
    or cancelled at once as inadmissible is of one of the first nine kinds."""

    INSUFFICIENT_BID = "insufficient_bid"  # Law 27
    PASS_OUT_OF_ROTATION = "pass_out_of_rotation"  # Law 30
    BID_OUT_OF_ROTATION = "bid_out_of_rotation"  # Law 31
    DOUBLE_OUT_OF_ROTATION = "double_out_of_rotation"  # Law 32
    CHANGE_OF_CALL = "change_of_call"  # Law 25
    INADMISSIBLE_DOUBLE = "inadmissible_double"  # Law 36
    CALL_WHILE_REQUIRED_TO_PASS = "call_while_required_to_pass"  # Law 37
    BID_ABOVE_SEVEN = "bid_above_seven"  # Law 38
    CALL_AFTER_FINAL_PASS = "call_after_final_pass"  # Law 39
    RETENTION_OF_RIGHT_TO_CALL = "retention_of_right_to_call"  # Law 34
    RESTRICTED_CALL = "restricted_call"  # Law 30B2(b)
    RECTIFICATION_NOT_FOLLOWED = "rectification_not_followed"  # Laws 31A1, 32B1
    ADJUSTED_SCORE_POSSIBLE = "adjusted_score_possible"  # Law 25B2(b)(2)
    EXPOSED_CARD = "exposed_card"  # Law 24 (rubber 23)
    OPENING_LEAD_OUT_OF_TURN = "opening_lead_out_of_turn"  # Law 54
    QUESTION_OUT_OF_TURN = "question_out_of_turn"  # Law 20F1 (rubber 20)
    LEAD_OUT_OF_TURN = "lead_out_of_turn"  # Laws 53, 55, 56
    PLAY_OUT_OF_TURN = "play_out_of_turn"  # Law 57 (a premature play)
    REVOKE = "revoke"  # Laws 61–64
    CLAIM_DISPUTED = "claim_disputed"  # Laws 68D, 70
    LEAD_RESTRICTION_NOT_FOLLOWED = "lead_restriction_not_followed"  # Laws 26, 50D2, 51B
    LEAD_BEFORE_OPTION = "lead_before_option"  # Law 50D2: led before declarer chose
    PLAY_RESTRICTION_NOT_FOLLOWED = "play_restriction_not_followed"  # Law 57A's option
    PENALTY_CARD_NOT_PLAYED = "penalty_card_not_played"  # Laws 50C, 50D1, 52
    SIMULTANEOUS_PLAY = "simultaneous_play"  # Law 58B: two cards from one hand to a trick
    DEFECTIVE_TRICK = "defective_trick"  # Law 67: a hand has not played to the trick
    AGREEMENT_WITHDRAWN = "agreement_withdrawn"  # Laws 69B, 71: after a claim was agreed
    CONCESSION_OBJECTED = "concession_objected"  # Law 68B2: a defender's partner objects


OUT_OF_ROTATION = (Irregularity.PASS_OUT_OF_ROTATION, Irregularity.BID_OUT_OF_ROTATION,
                   Irregularity.DOUBLE_OUT_OF_ROTATION)
"""The calls out of rotation (Laws 29–32): the player whose turn it was may cancel one by
calling (Law 28B)."""


class PassObligation(enum.StrEnum):
    """How long a player must pass (a board's `must_pass`, a ruling's `obligation`)."""

    NEXT_TURN = "next_turn"
    EVERY_TURN = "every_turn"


class LeadRestriction(enum.StrEnum):
    """What a Director's lead restriction does to the suit (a ruling's `restriction`, Law 26)."""

    REQUIRE = "require"
    PROHIBIT = "prohibit"


class LeadOption(enum.StrEnum):
    """Declarer's choice when the partner of a defender with a major penalty card is on lead
    (a `lead_option` event's `choice`, Laws 50D2, 51B)."""

    REQUIRE = "require"  # 50D2(a): the lead of the penalty card's suit; the card picked up
    PROHIBIT = "prohibit"  # 50D2(a): no lead of it while he retains the lead; picked up
    FREE = "free"  # 50D2(b): any lead; the penalty card stays


class PlayOption(enum.StrEnum):
    """Declarer's choice on the play of the partner of a defender who played prematurely (a
    `play_option` event's `choice`, Law 57A)."""

    HIGHEST = "highest"  # 57A1: the highest card he holds of the suit led
    LOWEST = "lowest"  # 57A2: the lowest card he holds of the suit led
    REQUIRE = "require"  # 57A3: a card of another suit declarer specifies
    PROHIBIT = "prohibit"  # 57A4: no card of another suit declarer specifies


class Relation(enum.StrEnum):
    """Whose turn it was, seen from the offender of a call out of rotation (Laws 28–32)."""

    LHO = "lho"
    PARTNER = "partner"
    RHO = "rho"
    SELF = "self"

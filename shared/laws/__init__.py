"""The Laws of the auction applied to a board: irregularities and their rectification.

One function per event type (`on_call`, `on_option`, …) and one per rule. Each rule cites
its Law: the duplicate text (1997, with the 2007/2017 Law 17) and the rubber text (ACBL)
differ in places, and `cite` gives the rubber section for a duplicate one.

Irregular calls are recorded, never refused. An irregular call the offender's LHO may accept
waits as `Board.pending` until the next event decides it: LHO accepts it by calling (Laws
27A, 29A) or with an `option` event; `option` false (or another player's call) cancels it and
the rectification follows; the player whose turn it was cancels a call out of rotation by
calling (Law 28B); the offender's own second call is a substitute LHO may accept in turn (Law
25B). An inadmissible call (Laws 32, 36, 37, 38) may never be accepted: it is cancelled and
rectified at once, and Law 35 takes the penalty back if LHO calls over it before the next
call. `docs/laws.md` records how each Law is read.

The package, one module a family of Laws, each importing only those below it:

- `common`: what every family does alike (an irregular call left pending, a rectification
  recorded, whose turn it was); `citations` (the rubber sections), `director_messages` (an
  alert's words);
- `rectification`: what follows a cancelled irregular call (Laws 25B2(b), 27B, 30–32, 36);
- `auction_end`: a call stands, the auction ends or not (Laws 17C, 22, 28A, 34);
- `inadmissible`: calls nobody may accept (Laws 32, 35–38) and calls after the final pass (39);
- `change_of_call`: Law 25, when a call may still be changed, and Law 25B;
- `rotation`: a call with nothing pending (Laws 17C, 18–19, 27, 29–32, 37, 38);
- `options`: the pending irregularity decided by the next event (Laws 25B, 27A, 28B, 29);
- `calls`: the `call` and `call_changed` events (Law 25A among them);
- `cards`: exposed cards during the auction (Law 24), and after it declarer's (48A) and a
  defender's (49);
- `misplaced`: simultaneous cards from one hand (58B), a defender's card before declarer's
  required lead (60B), the defective trick (67A);
- `penalty_cards`: major and minor penalty cards and declarer's lead options (50–52);
  `lead_option`: declarer's statement of his option (50D2, 51B), the penalty card he names
  (51A);
- `revoke`: the revoke, its correction, establishment and the tricks transferred (61–64);
- `play`: a card played, leads and plays out of turn, the option on a lead (41, 44, 45,
  53–57);
- `premature`: declarer's option on the partner of a defender who played early (57A);
- `claims`: claims and concessions (68–71), a result recorded (79A), the Director's tricks;
- `faced_hand`: a hand faced in the play: declarer's spread (54A), else a claim (48B2, 68A);
- `rulings`: the Director's rulings (Laws 17D, 21B, 26, 12 …);
- `disclosure`: questions and explanations (Law 20F).
"""

from shared.laws.calls import on_call, on_call_changed
from shared.laws.cards import on_card_exposed
from shared.laws.claims import on_claim, on_claim_response, on_result_recorded
from shared.laws.disclosure import on_explanation, on_question
from shared.laws.faced_hand import on_hand_faced
from shared.laws.lead_option import on_lead_option, on_penalty_card_named
from shared.laws.play import on_card_played, on_opening_lead, on_option
from shared.laws.premature import on_play_option
from shared.laws.rulings import on_ruling

__all__ = [
    "on_call",
    "on_call_changed",
    "on_card_exposed",
    "on_card_played",
    "on_claim",
    "on_claim_response",
    "on_explanation",
    "on_hand_faced",
    "on_lead_option",
    "on_opening_lead",
    "on_option",
    "on_penalty_card_named",
    "on_play_option",
    "on_question",
    "on_result_recorded",
    "on_ruling",
]

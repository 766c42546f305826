"""Scoring a tournament, the pure part (docs/scoring.md): matchpoints and Neuberg (Law 78A), IMPs,
cross-IMPs and Butler (Law 78B), the WBF's victory points, the Director's adjusted scores
(Laws 12C, 90), movements (Mitchell, Howell, team matches, Swiss pairings), each board's
traveller and the rankings.

Pure like the rest of `shared/`: results in, scores out; no clock, no I/O. The formulas, their
sources and the choices made: docs/scoring.md.
"""

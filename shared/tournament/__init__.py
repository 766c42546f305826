"""A tournament: its session (tables, deals, rounds), its entrants and movement, the
Director's scores, and its results. Scores of a field (matchpoints, IMPs, VPs) are in
`shared.scores`; the formats other programs read are in `shared.notation`."""

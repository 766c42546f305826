"""One table: its boards' state, the fold of its log (`engine`), the checks of what a seat
sends, and what each reader may see of it (`visibility`). The Laws' rules themselves are in
`shared.laws`; this package keeps the state they act on."""

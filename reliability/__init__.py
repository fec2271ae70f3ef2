"""Can this test collection be trusted? Reliability studies of pools, judgements and topic sets.

Seed 004 (Pal, Mitra & Kamps) and seed 003 §5.2.1 shrink the judgements, sample the topics or
leave a group of runs out of the pool, and watch how the ranking of the runs and its
significance change (spec section 9). Each study is one function here and one sub-command of
`focal reliability` (`reliability.cli.commands`).

A package of its own above `pooling` and `evaluation` (it rebuilds pools and re-evaluates runs),
beside `assessor` and independent of it; the pure statistics it reports (rank correlation, swap
rates, paired tests) live in `evaluation.statistics`.

- `scores`: runs × topics matrices of one measure, every qrels topic counting (as `focal eval -c`).
- `judgements`: qrels reduced by sampling, by a pool, or by leaving a group's articles out.
- `studies`: the four studies, returning plain rows for the command to print.
"""

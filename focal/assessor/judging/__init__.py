"""One path for an assessor's operation: validate -> apply the rules -> store -> derive.

`operations` (what a client sends), `spans` (passage arithmetic, ATOM), `rules` (an operation on
a judgement in memory), `persist` (one transaction), `judgements` (the use cases callers call),
`elements` (the 2005 two-phase element values). Imports `store` and `evaluation` only.
"""

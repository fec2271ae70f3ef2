"""What evaluation numbers are worth: significance tests, corrections, agreement, correlation.

Works on per-topic values and judgement records only, never on runs: the `measures` layer
produces the numbers, `focal.evaluation.cli` hands them over (docs/architecture.md). Definitions
and test vectors are in the spec, sections 7 to 9.
"""

"""Which differences between runs are significant (spec section 8; seed 002).

Per-topic values paired by topic (`pairing`), the classical tests (`classical`), resampling tests
(`resampling`), Tukey's HSD (`tukey`), corrections for many pairs (`corrections`), every pair at
once
(`pairwise`), power (`power`), and how two measures agree on significant pairs
(`measure_agreement`).
`results` is the shared answer of one test."""

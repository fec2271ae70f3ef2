"""The INEX measures, one module per family.

- `passages`: relevant characters of results (overlap with qrels passages, `X` results);
- `focused`: Focused and Thorough (character precision/recall, iP, AiP);
- `incontext`: Relevant in Context, Best in Context and T2I (gP, gR, AgP);
- `articles`: article-level MAP, P@k, nDCG@k, Rprec, bpref with trec_eval semantics;
- `declarations`: every measure's name, formula and reference, and the printed layouts.
"""

"""Element relevance from highlights: specificity and exhaustivity (spec section 4, seed 003).

`derivation` derives the 2006 implicit scale; `twophase` and `twophase_status` hold the INEX 2005
two-phase rules; `element_export` turns a judgement into export records; `element_qrels` derives
element qrels from FOL qrels and the collection. Imports `formats`.
"""

"""Passage measures of the official INEX program (Kamps et al., INEX 2007 Evaluation Measures):
one topic's relevant characters (`text`), Focused and Thorough (`focused`: character
precision/recall, iP, AiP), the in-context tasks (`incontext`: gP, gR, AgP), and the arrays the
whole-run focused engine works on (`focused_curves`, `focused_groups`, `qrels_arrays`)."""

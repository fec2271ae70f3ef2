"""Element measures of INEX 2002-2006 (spec section 5): quantisations, P@k and set-based
overlap, inex_eval, inex_eval_ng, nxCG and MAep."""

"""trec_eval's measure families: each one declaration with its computation on the arrays of
a whole run (trec_eval `measures.c`: one row per measure with its function)."""

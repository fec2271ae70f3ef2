"""trec_eval's measure families: each one declaration with its computation on the arrays of
a whole run (trec_eval `measures.c`: one row per measure with its function). A module holds
the families of one concept (`precision`, `sets`, `average_precision`, `interpolated`,
`gains`, `top_ranks`, `preference_measures`), each declaring them in its `DECLARED`;
`declarations` gathers them in trec_eval's order; `measure` says what a declaration is and
what its computation reads (`Context`)."""

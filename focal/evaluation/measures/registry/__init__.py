"""What every measure is, apart from how it is computed: its declaration (name, vocabulary,
parameters, aliases, formula, reference), the one grammar that turns a typed name into a
declaration and its parameters in each vocabulary (`names`; trec_eval's families, sets and
spellings are read by `trec_eval.names`), the listing of `focal measures` (`vocabulary`), and
the printed layouts of the passage tasks (`declarations`)."""

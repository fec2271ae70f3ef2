"""What every measure is, apart from how it is computed: its declaration (name, vocabulary,
parameters, aliases, formula, reference), the one grammar that turns a typed name into a
declaration and its parameters (`names`), trec_eval's families and sets (`trec`), and the
printed layouts of the passage tasks (`declarations`)."""

"""trec_eval's measures in one place: `families/` declares each measure with the
function that computes it (name, parameters, aliases, printed rows, definition); `engine/`
reads qrels and runs into graded rankings and evaluates them (the key tables, the C part's
numpy twin, judgement groups, preferences). `focal trec_eval` is
`focal.evaluation.cli.trec_eval`."""

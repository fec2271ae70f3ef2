"""trec_eval's measures in one place: `families/` declares each measure with the
function that computes it (name, parameters, aliases, printed rows, definition); `names` reads
a name in any spelling as a family and its parameters (with C's number readers, `c_numbers`);
`engine/` reads qrels and runs into graded rankings and evaluates them (the key tables, the C
part's numpy twin, judgement groups, preferences). `focal trec_eval` is
`focal.evaluation.cli.trec_eval`."""

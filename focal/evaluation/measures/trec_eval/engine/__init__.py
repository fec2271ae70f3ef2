"""From qrels and run files to graded rankings, and their evaluation by the declared
families: key tables, grades, trec_eval's order, judgement groups (-R qrels_jg) and
preferences (-R prefs, qrels_prefs)."""

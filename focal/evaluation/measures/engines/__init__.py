"""The engines that evaluate a whole run, each serving the measures the registry says it
provides (`focal.evaluation.measures.providers` chooses among them): passage and article measures
topic by topic (`passage_topics`, `article_topics`), the focused task of a whole run at once
(`focused_run`), trec_eval's measures of a whole run at once (`trec_run`), and element measures
(`element_topics`)."""

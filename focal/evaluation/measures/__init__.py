"""The measures, by family, the registry that declares them, and the engines that compute them.

- `registry/`: every measure's declaration (name, parameters, aliases per vocabulary, formula,
  reference, printed layout) and the one grammar of names (`registry.names`), whose syntax
  (`grammar`) lies below `registry` and `trec_eval`;
- `trec_eval/`: trec_eval's families, each declared with the function that computes it
  (`trec_eval.families`), their names in every vocabulary (`trec_eval.names`), and the engine
  that evaluates TREC runs with them (`trec_eval.engine`);
- `passages/`: Focused, Thorough and the in-context tasks (relevant characters, iP, AiP, gP,
  AgP) and the arrays of the whole-run focused evaluation;
- `articles/`: Focal's article measures (MAP, P@k, nDCG@k, Rprec, bpref) and trec_eval's on
  arrays;
- `elements/`: element measures of INEX 2002-2006 (spec section 5);
- `engines/`: the evaluators of whole runs, each providing some declared measures;
- `providers`: which engine evaluates what, chosen in one place; `evaluate`: one run in memory;
  `records`: the settings and evaluations every engine shares; `prepared`: qrels indexed once;
  `tasks`: the task names.
"""

"""Evaluations run: run files and objects against qrels through the engine that serves them, for
`focal eval`, `focal compare` and the Python API alike.

`options` holds what a call asks (`EvalOptions`, `CompareOptions`) and the one check of its
combinations; `focal_engines` runs Focal's own engines (the passage tasks and Focal's article
measures) on workers, `articles` and `article_workers` trec_eval's measures, `elements` the
element measures, and `per_topic` gives `focal compare` one measure's per-topic values. Nothing
here parses a command line or writes output: `focal.evaluation.cli` does, above this package,
and `focal.evaluation.api` converts Python objects for it.
"""

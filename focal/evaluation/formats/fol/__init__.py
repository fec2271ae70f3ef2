"""FOL files (File, Offset, Length; spec section 2): qrels and runs, read line by line or as
columns.

`qrels` and `runs` are the readers and writers (`run_fields` converts a text run's columns for
`runs`); `qrels_fast`, `columns`, `tokens`, `arrow_table` and `read_ahead` are the whole-file
fast paths that the evaluation of large runs uses."""

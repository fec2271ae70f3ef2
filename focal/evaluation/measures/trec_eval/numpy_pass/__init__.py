"""The whole-file pass of plain qrels and a plain run with numpy alone (`passes.open_numpy_pass`),
for an install without the C part or with `FOCAL_KERNEL=numpy`: the C pass's interface
(`engine/plain_pass.py`) and its answers, topic by topic (docs/trec_eval.md, "The C part").

`fields` splits plain lines and reads their ids, `values` their grades and scores, `look` is
the first look at a file (its topic groups; the lines kept as their ids' words) and the join of
the two files' topics, `topics` a block's lines and its qrels topics' counts, `block` a block's
evaluation, `rows` the measure rows by the numpy families, `passes` the driver, `chosen` the
pass an install answers with (the C part's, else this one: `focal trec_eval`, `focal eval
--task articles` and `focal.evaluate` with paths). Nothing here imports pyarrow or click, nor
numpy.typing (the array types are the checker's only). The records are plain classes with
`__slots__`: one is made at import in a fiftieth of a frozen dataclass's time (a NamedTuple's
takes a sixth), and a call of this path is mostly start-up.
"""

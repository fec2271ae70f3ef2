"""The tasks `focal eval` knows, as plain names: the command line lists them before it loads any
measure (`focal.evaluation.measures.registry.declarations` declares what each prints)."""

PASSAGE_TASKS = ("focused", "thorough")
CONTEXT_TASKS = ("ric", "bic", "t2i")
ALL_PASSAGE_TASKS = PASSAGE_TASKS + CONTEXT_TASKS
TASKS = (*ALL_PASSAGE_TASKS, "articles", "elements")

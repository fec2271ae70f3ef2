"""`focal eval`: the command (`command`: its options, read into `running.options.EvalOptions`),
its paths through Focal's own engines (`engines`) and the element engine (`elements`), each
evaluating through `focal.evaluation.running` and writing, and what it prints (`output`)."""

"""`focal eval`: the command (`command`), its paths through Focal's own engines (`engines`,
`workers` for the processes, `elements` for `--task elements`), what it prints (`output`), and
the per-topic values `focal compare` tests (`per_topic`: read from files, or evaluated as
`focal eval` does)."""

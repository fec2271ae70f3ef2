"""Runs evaluated for the commands: `focal eval`'s path through Focal's own engines, and the
per-topic values `focal compare` tests (read from files, or evaluated as `focal eval` does)."""

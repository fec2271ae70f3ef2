"""How the commands get their runs' values from Focal's own engines: `focal eval`'s passage
tasks and article measures, and the per-topic values `focal compare` tests."""

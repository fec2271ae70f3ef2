"""The `focal pool` commands: pool files built, extended and described from run files
(docs/pooling.md).

`commands` holds the click group and its sub-commands; `support` reads the runs and writes the pools
they share."""

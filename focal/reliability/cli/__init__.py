"""The `focal reliability` commands: one module per family of study, options shared in `options`."""

"""The pure `focal` commands: `eval`, `doc`, `convert`, `baseline` (thin click wrappers).

Each module parses options, calls the layers below and writes output (`report`, `plot`);
it may import every other part of `evaluation`, and nothing imports it but `focal.assessor.cli`.
"""

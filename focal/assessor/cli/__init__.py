"""The `focal` command (`main`) and the assessor's sub-commands, one module per noun.

The top layer: `main` composes the commands of `focal.evaluation.cli`, `focal.pooling.cli.commands`
and the modules
here, importing each only when it is invoked. May import every other part of `assessor`.
"""

"""The `focal` command: one click group that composes the CLIs of every package.

Sub-commands are imported only when they are invoked, so that `focal eval` or `focal doc`
never pay for importing Flask and SQLAlchemy (and the pure packages stay pure).
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys

import click

# No command of Focal does linear algebra big enough to share among threads: without this,
# numpy's OpenBLAS starts a thread per core as it loads, and they spin for a while (a tenth of
# the CPU time of a 20-run `focal eval` on two cores, taken from the threads that parse and
# evaluate, and as much of `focal pool build`'s). A value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# As the process ends, Python collects cycles once more, through every object still alive (the
# qrels and runs of `focal eval`: 20-30 ms) to free what the process is about to give back
# anyway; frozen objects are left alone.
atexit.register(gc.freeze)

# name -> "module:attribute" of a click command or group. Each package owns its entries.
COMMANDS: dict[str, str] = {
    # evaluation (pure)
    "doc": "evaluation.cli.doc:doc",
    "convert": "evaluation.cli.convert:convert",
    "eval": "evaluation.cli.eval:eval_command",
    "trec_eval": "evaluation.cli.trec.command:trec_eval_command",
    "measures": "evaluation.cli.eval:measures_command",
    "baseline": "evaluation.cli.baseline:baseline",
    "compare": "evaluation.cli.compare:compare_command",
    # reliability studies (pure, above pooling and evaluation)
    "reliability": "reliability.cli.commands:reliability",
    # pooling (pure), composed with the database's pools
    "pool": "assessor.cli.pools:pool",
    "pool-build": "assessor.cli.pools:pool_build",
    "pool-stats": "assessor.cli.pools:pool_stats",
    # assessor (web app and database)
    "init-db": "assessor.cli.database:init_db",
    "import": "assessor.cli.imports:import_group",
    "collection": "assessor.cli.collections:collection",
    "users": "assessor.cli.users:users",
    "assign": "assessor.cli.users:assign",
    "serve": "assessor.cli.serve:serve",
    "demo": "assessor.cli.serve:demo",
    "export-qrels": "assessor.cli.exports:export_qrels",
    "agreement": "assessor.cli.agreement:agreement",
    "report": "assessor.cli.report:report",
    "backup": "assessor.cli.database:backup_command",
    "restore": "assessor.cli.database:restore_command",
}


class LazyGroup(click.Group):
    """A group whose commands are resolved from `COMMANDS` on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        module = importlib.import_module(module_name)
        loaded = getattr(module, attribute)
        if not isinstance(loaded, click.Command):
            raise TypeError(f"{target} is not a click command")
        return loaded


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="focal")
def main() -> None:
    """Focal: assessment and evaluation for focused (XML element and passage) retrieval."""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

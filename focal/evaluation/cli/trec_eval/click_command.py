"""`focal trec_eval` as the `focal` group lists and runs it: a click command that hands its
arguments, untouched, to trec_eval's own command line (`command.main`).

The `focal` console script sends `focal trec_eval ...` to `command.main` before click is even
imported (`focal.assessor.cli.launch`); this command serves `focal --help` and the group when it
is driven from Python (click's test runner).
"""

from __future__ import annotations

import sys

import click

from focal.evaluation.cli.trec_eval.command import main


@click.command(
    "trec_eval",
    short_help="trec_eval 10.0's own command line and output, byte for byte (docs/trec_eval.md).",
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def trec_eval_command(argv: tuple[str, ...]) -> None:
    """trec_eval 10.0's command line, byte for byte (-h for its options; docs/trec_eval.md)."""
    sys.exit(main(argv, sys.stdout, sys.stderr))

"""What `focal eval` and `focal compare` check of their files before any work: the task the
qrels call for (`task_for`: TREC qrels only `--task articles` reads) and that a figure asked
for can be drawn (`check_plot`: its suffix, and matplotlib installed), so that a long evaluation
neither fails on a guessable `--task` nor ends in a refusal. Refusals are `OptionError`s (a usage
error, exit code 2). Nothing heavy is loaded: the qrels' first line is all that is read.
"""

from __future__ import annotations

import importlib.util

import click

from focal.evaluation.output.figures import SUFFIXES as PLOT_SUFFIXES

DEFAULT_TASK = "focused"


class OptionError(click.UsageError, ValueError):
    """Options that cannot go together, or an option's value refused: a usage error on the
    command line (its message after `Error:`, exit code 2), a ValueError from Python."""


def task_for(qrels_path: str, given: str | None) -> str:
    """The task `--task` gave, else the one the files call for where only one can read them
    (TREC qrels, 4 fields a line: `articles`, announced on stderr), else the default
    (`focused`). A task given that cannot read the qrels is an OptionError naming the one that
    can; a file that cannot be read is left to the reader that follows, which names it."""
    from focal.evaluation.errors import FormatError
    from focal.evaluation.formats.source import first_fields

    try:
        trec = 1 <= first_fields(qrels_path) <= 4
    except FormatError:
        trec = False
    if given is not None:
        if trec and given != "articles":
            raise OptionError(
                f"{qrels_path} holds TREC qrels (4 fields a line), which --task articles reads, "
                f"not --task {given} (FOL or element qrels)"
            )
        return given
    if trec:
        click.echo(f"{qrels_path}: TREC qrels, which only --task articles reads", err=True)
        return "articles"
    return DEFAULT_TASK


def check_plot(path: str | None) -> None:
    """A figure asked for (`--plot FILE`) checked before anything is evaluated: its suffix, and
    that matplotlib is installed (OptionError naming the extra), so that a long evaluation does
    not end in a refusal."""
    if path is None:
        return
    if not path.lower().endswith(PLOT_SUFFIXES):
        raise OptionError(f"--plot FILE must end in {' or '.join(PLOT_SUFFIXES)}, not {path!r}")
    if importlib.util.find_spec("matplotlib") is None:
        raise OptionError(
            "--plot needs matplotlib, which is not installed: pip install 'focal[plots]'"
        )

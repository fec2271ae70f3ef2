"""`focal agreement`: how far two assessors agree, from two FOL qrels files or the database.

    focal agreement [--format text|tsv|json] [--topic T] QRELS_A QRELS_B
    focal agreement [--format ...] [--topic T] --assessors A,B
    focal agreement [--format ...] [--topic T] --assessors A --gold

Both forms print the same table (spec section 7): one row per topic both judged and `all`.
`--gold` compares one assessor with the adjudicated judgements of the double-judged topics
(`campaign.results.adjudication`).
`--elements` adds the element level (Piwowarski et al. 2008, Table X) and Krippendorff's
alpha; from files it needs `--collection DIR` (the documents give the element tables).
`--gamma` adds Mathet et al.'s γ from the optional extra `focal[gamma]` (one line and exit 2
when it is not installed). The file form imports neither Flask nor SQLAlchemy.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from focal.assessor.cli.support import CommandError, friendly_errors, transaction


@click.command(
    "agreement",
    short_help="Compare two assessors of the same topics: documents, kappa, characters, elements.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "tsv", "json"]),
    default="text",
    show_default=True,
)
@click.option("--assessors", metavar="A,B", help="Two assessors' judgements in the database.")
@click.option(
    "--gold",
    is_flag=True,
    help="With --assessors A: A against the adjudicated judgements (gold where decided).",
)
@click.option("--topic", help="Only this topic.")
@click.option(
    "--elements", is_flag=True, help="Add element-level agreement and Krippendorff's alpha."
)
@click.option(
    "--gamma",
    is_flag=True,
    help="Add Mathet et al.'s gamma (needs the optional extra focal[gamma]).",
)
@click.option(
    "--collection",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Files with --elements: the folder of the articles (ARTICLE.xml).",
)
@click.argument("qrels", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@friendly_errors
def agreement(
    output_format: str,
    assessors: str | None,
    gold: bool,
    topic: str | None,
    elements: bool,
    gamma: bool,
    collection: Path | None,
    qrels: tuple[Path, ...],
) -> None:
    """Compare two assessors of the same topics: documents, kappa, characters (and elements)."""
    from focal.evaluation.cli.agreement import WRITERS, files_table
    from focal.evaluation.statistics.agreement import gamma as gamma_measure
    from focal.evaluation.statistics.agreement.assessors import AgreementError

    if gamma and not gamma_measure.available():
        raise CommandError(gamma_measure.MISSING)

    if gold and assessors is None:
        raise click.UsageError("--gold compares an assessor with gold: give --assessors A")
    if assessors is not None:
        if qrels:
            raise click.UsageError("give either --assessors A,B or two qrels files, not both")
        if collection is not None:
            raise click.UsageError("--collection is for files; the database has the documents")
        names = [name.strip() for name in assessors.split(",")]
        if gold:
            if len(names) != 1 or not names[0]:
                raise click.UsageError(f"--gold wants one assessor, found {assessors!r}")
            from focal.assessor.campaign.results.gold_qrels import gold_table

            with transaction() as session:
                table = gold_table(session, names[0], topic, gamma)
            WRITERS[output_format](table, sys.stdout)
            return
        if len(names) != 2 or not all(names):
            raise click.UsageError(f"--assessors wants two names as A,B, found {assessors!r}")
        from focal.assessor.campaign.results.agreement import assessors_table

        with transaction() as session:
            table = assessors_table(session, names[0], names[1], topic, elements, gamma)
    else:
        if len(qrels) != 2:
            raise click.UsageError(f"expected two qrels files (or --assessors), got {len(qrels)}")
        if elements and collection is None:
            raise click.UsageError("--elements on files needs --collection DIR")
        try:
            table = files_table(
                qrels[0],
                qrels[1],
                topic=topic,
                collection=collection if elements else None,
                gamma=gamma,
            )
        except AgreementError as error:
            raise CommandError(str(error)) from error
    WRITERS[output_format](table, sys.stdout)

"""`focal baseline`: a BM25 run over a collection, written to stdout.

    focal baseline --collection demo/collection --topics demo/topics.xml --unit element

The query is the topic's title unless `--field` says otherwise. Errors in the collection or the
topics are one line on stderr and exit code 2; the run is written only when everything parsed.
"""

from __future__ import annotations

import io
import sys
from typing import cast

import click

from focal.evaluation.baseline.bm25 import (
    DEFAULT_ELEMENT_TAGS,
    DEFAULT_MAX_RESULTS,
    DEFAULT_WINDOW,
    QUERY_FIELDS,
    UNITS,
    Bm25Params,
    Unit,
    bm25_run,
    load_collection,
)
from focal.evaluation.cli import numbers
from focal.evaluation.cli.lists import list_option
from focal.evaluation.errors import FormatError


@click.command(
    "baseline",
    short_help="Rank the units of a collection for each topic with BM25: a run, on stdout.",
)
@click.option(
    "--collection",
    "collection_dir",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="Directory of XML documents (id = file name without .xml).",
)
@click.option(
    "--topics",
    "topics_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="INEX topic file.",
)
@click.option(
    "--unit",
    type=click.Choice(UNITS),
    default="article",
    show_default=True,
    help="Retrieval unit: whole articles, elements, or windows of tokens.",
)
@click.option("--k1", type=numbers.Real(min=0), default=1.2, show_default=True)
@click.option("--b", type=numbers.Real(0, 1), default=0.75, show_default=True)
@click.option("--run-id", default=None, help="Run id column [default: bm25-UNIT].")
@click.option(
    "--max",
    "max_results",
    type=numbers.RANK,
    default=DEFAULT_MAX_RESULTS,
    show_default=True,
    help="Results per topic.",
)
@click.option(
    "--format",
    "output",
    type=click.Choice(["fol", "article", "element"]),
    default="fol",
    show_default=True,
    help="FOL run (8 fields), article run (6 fields, each article once) or, with --unit "
    "element, element run (7 fields, paths).",
)
@click.option(
    "--field",
    type=click.Choice(QUERY_FIELDS),
    default="title",
    show_default=True,
    help="Topic field used as the query.",
)
@list_option(
    "--elements",
    default=",".join(sorted(DEFAULT_ELEMENT_TAGS)),
    show_default=True,
    help="Element tags that are units (with --unit element), comma-separated or repeated.",
)
@click.option(
    "--window",
    type=numbers.RANK,
    default=DEFAULT_WINDOW,
    show_default=True,
    help="Tokens per passage (with --unit passage); passages start every window/2 tokens.",
)
@click.option(
    "--keep-overlap",
    is_flag=True,
    help="Keep overlapping results (a thorough run) instead of removing overlap.",
)
def baseline(
    collection_dir: str, topics_path: str, unit: str, k1: float, b: float, run_id: str | None,
    max_results: int, output: str, field: str, elements: str, window: int, keep_overlap: bool,
) -> None:  # fmt: skip
    """Rank the units of a collection for each topic with BM25 and write the run to stdout."""
    from focal.evaluation.formats.fol.runs import write_run
    from focal.evaluation.formats.inex.topics import read_topics

    tags = frozenset(tag.strip() for tag in elements.split(",") if tag.strip())
    if unit == "element" and not tags:
        raise click.UsageError("--elements needs at least one tag")
    if output == "element" and unit != "element":
        raise click.UsageError("--format element needs --unit element")
    if run_id is not None and (not run_id or any(c.isspace() for c in run_id)):
        raise click.UsageError("--run-id must be a non-empty word without spaces")
    try:
        documents = load_collection(collection_dir)
        topics = read_topics(topics_path)
    except FormatError as error:
        click.echo(f"focal baseline: {error}", err=True)
        sys.exit(2)
    run = bm25_run(
        documents,
        topics,
        cast(Unit, unit),
        Bm25Params(k1=k1, b=b),
        run_id=run_id or f"bm25-{unit}",
        output="article" if output == "article" else "element" if output == "element" else "fol",
        field=field,
        max_results=max_results,
        focused=not keep_overlap,
        element_tags=tags,
        window=window,
    )
    buffer = io.StringIO()
    write_run(run, buffer)
    click.echo(buffer.getvalue(), nl=False)

"""What `focal import collection` and the Import page ask of a collection in another format.

One reading of the options for both: the format (given, or from the path), the JSON Lines
fields, the pool whose documents alone are stored, and where the documents are written (the
instance's data folder, `instance/data/collections/`).
"""

from __future__ import annotations

from pathlib import Path

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup.converted.stored import Converted
from focal.assessor.campaign.setup.uploads import data_directory
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.detect import checked_format, detect_format
from focal.evaluation.formats.collections.jsonl import Fields


def collections_folder(instance_path: str | Path) -> Path:
    """Where the documents of converted collections are written: `instance/data/collections`."""
    return data_directory(instance_path) / "collections"


def converted_source(
    path: Path,
    format_name: str | None,
    pool: Path | None,
    instance_path: str | Path,
    fields: tuple[str | None, str | None, str | None] = (None, None, None),
) -> Converted | None:
    """How `focal import collection` imports the collection at `path` (`converted_at`, the
    documents written under the instance's `data/collections`)."""
    return converted_at(path, format_name, collections_folder(instance_path), pool, fields)


def converted_at(
    path: Path,
    format_name: str | None,
    store: Path,
    pool: Path | None = None,
    fields: tuple[str | None, str | None, str | None] = (None, None, None),
) -> Converted | None:
    """How to import the collection at `path`: None for a folder of XML articles (read as
    they are), else a `Converted` writing under `store`. A bad option is a CampaignError
    saying what is expected; a path whose format cannot be told, a FormatError."""
    try:
        found = checked_format(format_name) if format_name else detect_format(path)
        chosen = Fields.parse(*fields)
    except FormatError:
        raise
    except ValueError as error:
        raise CampaignError(str(error)) from None
    if found == "xml":
        if pool is not None:
            raise CampaignError(
                "--pool applies to the other formats; XML articles are read in place"
            )
        return None
    pooled: frozenset[str] | None = None
    if pool is not None:
        from focal.pooling.io import read_pool

        read = read_pool(pool)
        pooled = frozenset(
            entry.article for topic in read.topics.values() for entry in topic.articles
        )
    return Converted(store, found, chosen, pooled)

"""The demo campaign: our own articles, topics and runs, pooled, with users and assignments.

Loading it again keeps the judgements made so far: imports update, pools are rebuilt, users get
their demo passwords back, assignments are kept. The material sits in `demo/` at the top of a
checkout (demo/README.md says how it was made); a wheel ships it as the package data
`focal.assessor.demo_material` (pyproject.toml), which is looked up first. The first topic is
double-judged: both assessors come with judgements of it (`demo/qrels/assessor-9001.qrels`,
four articles down the pool, and `demo/qrels/assessor2-9001.qrels`, all of it but its first
article; loaded by `focal import qrels`'s code the first time only), agreeing on some articles
and not on others, so that the agreement and adjudication pages have something to show when the
demo opens, and the head of the pool is left to judge in the browser.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people.users import add_user, assign_topic
from focal.assessor.campaign.pools.build import build_pools
from focal.assessor.campaign.setup.importing import import_collection, import_runs, import_topics
from focal.assessor.campaign.setup.qrels_import import import_qrels
from focal.assessor.store.models import Assignment, Judgement, Topic, User
from focal.pooling.records import natural_key

_SHIPPED = Path(__file__).resolve().parents[2] / "demo_material"
DEMO_DIR = _SHIPPED if _SHIPPED.is_dir() else Path(__file__).resolve().parents[4] / "demo"
DEMO_USERS = (
    ("organiser", "organiser", "organiser"),
    ("assessor", "assessor", "assessor"),
    ("assessor2", "assessor", "assessor2"),
)  # (name, role, password)
POOL_SIZE = 20
DOUBLE_JUDGEMENTS = (
    ("assessor", Path("qrels") / "assessor-9001.qrels"),
    ("assessor2", Path("qrels") / "assessor2-9001.qrels"),
)
"""The demo's two assessors of the first topic and their judgements of it made before the demo
opens (relative to the demo)."""


def demo_material(directory: Path) -> tuple[Path, Path, list[Path]]:
    """The collection folder, topics file and runs of the demo (CampaignError when absent)."""
    collection, topics = directory / "collection", directory / "topics.xml"
    runs = sorted((directory / "runs").glob("*.run"))
    missing = [str(p) for p in (collection, topics) if not p.exists()]
    if not runs:
        missing.append(str(directory / "runs" / "*.run"))
    if missing:
        raise CampaignError(f"demo material missing: {', '.join(missing)}")
    return collection, topics, runs


def load_demo(session: Session, directory: Path = DEMO_DIR) -> dict[str, int]:
    """Import, pool and assign the demo material in `session` (the caller commits); counts."""
    collection, topics_file, runs = demo_material(directory)
    documents = import_collection(session, collection, "demo", "demo").documents
    topics = import_topics(session, topics_file)
    import_runs(session, runs)
    pools = build_pools(session, "topn", POOL_SIZE)
    for name, role, password in DEMO_USERS:
        add_user(session, name, role, password)
    topic_ids = sorted(session.scalars(select(Topic.id)), key=natural_key)
    for topic_id in topic_ids:
        assign_topic(session, topic_id, "assessor")
    if topic_ids:
        assign_topic(session, topic_ids[0], "assessor2")
        for name, relative in DOUBLE_JUDGEMENTS:
            _prejudged(session, topic_ids[0], name, directory / relative)
    return {"documents": documents, "topics": topics, "runs": len(runs), "pools": len(pools)}


def _prejudged(session: Session, topic: str, name: str, path: Path) -> None:
    """Load `name`'s judgements of `topic` from `path` unless they have judged any article of
    it already (loading the demo again keeps the judgements made since)."""
    judged = session.scalars(
        select(Judgement.id)
        .join(Assignment, Judgement.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .where(User.name == name, Assignment.topic_id == topic)
    ).first()
    if judged is None and path.exists():
        import_qrels(session, path, name)

"""Accounts: users and their roles, passwords, API tokens, and who assesses which topic.

Passwords are hashed with werkzeug.security (scrypt); tokens are random and only their SHA-256
is stored. Used by `focal users`/`focal assign`, the organiser's pages and log-in (no Flask).
"""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from assessor.campaign.errors import CampaignError
from assessor.store.models import ROLES, ApiToken, Assignment, Topic, User

TOKEN_PREFIX = "focal_"


def hash_password(password: str) -> str:
    """A salted, slow hash of `password`."""
    return generate_password_hash(password)


def check_password(user: User, password: str) -> bool:
    """True when `password` is the user's (token-only users have none)."""
    return user.password_hash is not None and check_password_hash(user.password_hash, password)


def _token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_token(session: Session, user: User) -> str:
    """Create an API token for `user`; the plain token is returned once and never stored."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    session.add(ApiToken(user=user, token_sha256=_token_digest(token)))
    return token


_USER_FOR_TOKEN = (
    select(User)
    .join(ApiToken, ApiToken.user_id == User.id)
    .where(ApiToken.token_sha256 == bindparam("digest"))
)


def user_for_token(session: Session, token: str) -> User | None:
    """The user owning `token`, if any."""
    # One statement (a join), as every bearer request asks; SHA-256 suffices for tokens of 32
    # random bytes (nothing to brute-force), unlike passwords, which get scrypt.
    return session.scalars(_USER_FOR_TOKEN, {"digest": _token_digest(token)}).first()


def authenticate(session: Session, name: str, password: str) -> User | None:
    """The user called `name` if `password` is theirs."""
    user = session.scalars(select(User).where(User.name == name)).first()
    if user is None:
        # Spend the same time as a wrong password so names cannot be probed by timing.
        check_password_hash(_DUMMY_HASH, password)
        return None
    return user if check_password(user, password) else None


_DUMMY_HASH = generate_password_hash("not a password")


def find_user(session: Session, name: str) -> User:
    """The user called `name` (LookupError naming it otherwise)."""
    user = session.scalars(select(User).where(User.name == name)).first()
    if user is None:
        raise LookupError(f"no user {name!r} (add one with `focal users add`)")
    return user


def add_user(session: Session, name: str, role: str, password: str | None) -> User:
    """Create a user, or update the role and password of an existing one."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    user = session.scalars(select(User).where(User.name == name)).first()
    if user is None:
        user = User(name=name, role=role)
        session.add(user)
    user.role = role
    if password is not None:
        user.password_hash = hash_password(password)
    session.flush()
    return user


def assign_topic(session: Session, topic_id: str, user_name: str) -> Assignment:
    """Give a topic to an assessor (idempotent)."""
    user = find_user(session, user_name)
    if session.get(Topic, topic_id) is None:
        raise LookupError(f"no topic {topic_id!r} (import topics first)")
    if user.role != "assessor":
        raise CampaignError(f"{user_name} is an {user.role}, not an assessor")
    assignment = session.scalars(
        select(Assignment).where(Assignment.topic_id == topic_id, Assignment.user_id == user.id)
    ).first()
    if assignment is None:
        assignment = Assignment(topic_id=topic_id, user_id=user.id)
        session.add(assignment)
        session.flush()
    return assignment


def unassign_topic(session: Session, topic_id: str, user_name: str) -> None:
    """Take a topic away from an assessor; their judgements of it are deleted with it."""
    user = find_user(session, user_name)
    assignment = session.scalars(
        select(Assignment).where(Assignment.topic_id == topic_id, Assignment.user_id == user.id)
    ).first()
    if assignment is None:
        raise LookupError(f"topic {topic_id} is not assigned to {user_name}")
    session.delete(assignment)

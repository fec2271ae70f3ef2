"""Accounts: users and their roles, passwords, API tokens, and who assesses which topic.

Passwords are hashed with werkzeug.security (scrypt); tokens are random and only their SHA-256
is stored. Used by `focal users`/`focal assign`, the organiser's pages and log-in (no Flask).

Access can be ended on the server: a token may expire or be revoked, and raising a user's
`session_epoch` ends every session begun before (log-out, a new password, disabling the user,
which also revokes their tokens).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from sqlalchemy import bindparam, or_, select, update
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.store.gold import TopicAdjudicator
from focal.assessor.store.models import ROLES, ApiToken, Assignment, Topic, User, utcnow
from focal.assessor.store.upserts import insert_absent
from focal.settings import token_lifetime

TOKEN_PREFIX = "focal_"
PASSWORD_MIN_LENGTH = 8


def check_new_password(password: str) -> None:
    """Refuse a password shorter than `PASSWORD_MIN_LENGTH` characters (CampaignError)."""
    if len(password) < PASSWORD_MIN_LENGTH:
        raise CampaignError(f"the password must have at least {PASSWORD_MIN_LENGTH} characters")


def hash_password(password: str) -> str:
    """A salted, slow hash of `password`."""
    return generate_password_hash(password)


def check_password(user: User, password: str) -> bool:
    """True when `password` is the user's (token-only users have none)."""
    return user.password_hash is not None and check_password_hash(user.password_hash, password)


def _token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def parse_lifetime(text: str) -> timedelta | None:
    """`30d` or `12h` as a timedelta; `never` as None (a token that does not expire): the
    grammar of `focal.settings.token_lifetime`, refused as a CampaignError."""
    try:
        return token_lifetime(text)
    except ValueError as error:
        raise CampaignError(str(error)) from None


def issue_token(session: Session, user: User, lifetime: timedelta | None = None) -> str:
    """Create an API token for `user`; the plain token is returned once and never stored.

    With a `lifetime` the token is refused once it has passed; without, it lasts until revoked.
    """
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires = None if lifetime is None else utcnow() + lifetime
    session.add(ApiToken(user=user, token_sha256=_token_digest(token), expires_at=expires))
    return token


def token_record(session: Session, token: str) -> ApiToken:
    """The stored record of a plain token (its id, expiry), e.g. to report after issuing it:
    pending rows are written first, so a token issued in this transaction is found."""
    session.flush()
    record = session.scalars(
        select(ApiToken).where(ApiToken.token_sha256 == _token_digest(token))
    ).one()
    return record


_USER_FOR_TOKEN = (
    select(User)
    .join(ApiToken, ApiToken.user_id == User.id)
    .where(
        ApiToken.token_sha256 == bindparam("digest"),
        ApiToken.revoked_at.is_(None),
        or_(ApiToken.expires_at.is_(None), ApiToken.expires_at > bindparam("now")),
        User.disabled_at.is_(None),
    )
)


def user_for_token(session: Session, token: str) -> User | None:
    """The user owning `token`, if the token is neither expired nor revoked and the user enabled."""
    # One statement (a join), as every bearer request asks; SHA-256 suffices for tokens of 32
    # random bytes (nothing to brute-force), unlike passwords, which get scrypt.
    query = _USER_FOR_TOKEN
    return session.scalars(query, {"digest": _token_digest(token), "now": utcnow()}).first()


def tokens_of(session: Session, user: User) -> list[ApiToken]:
    """Every token of `user`, newest first (revoked and expired ones too, to show them)."""
    return list(
        session.scalars(
            select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id.desc())
        )
    )


def revoke_tokens(session: Session, user: User, token_id: int | None = None) -> int:
    """Revoke one of `user`'s tokens (`token_id`) or all of them; the number revoked."""
    statement = update(ApiToken).where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
    if token_id is not None:
        statement = statement.where(ApiToken.id == token_id)
    revoked = session.execute(statement.values(revoked_at=utcnow())).rowcount  # type: ignore[attr-defined]
    if token_id is not None and revoked == 0:
        raise LookupError(f"{user.name} has no token {token_id} that is still valid")
    return int(revoked)


def end_sessions(user: User) -> None:
    """End every session `user` has, everywhere (the epoch in their cookies no longer matches)."""
    user.session_epoch = (user.session_epoch or 0) + 1


def disable_user(session: Session, user: User) -> None:
    """Refuse the user's log-in from now on, end their sessions and revoke their tokens."""
    user.disabled_at = utcnow()
    end_sessions(user)
    revoke_tokens(session, user)
    session.flush()


def enable_user(user: User) -> None:
    """Let a disabled user log in again (their old sessions and tokens stay ended)."""
    user.disabled_at = None


def authenticate(session: Session, name: str, password: str) -> User | None:
    """The user called `name` if `password` is theirs and the user is not disabled."""
    user = session.scalars(select(User).where(User.name == name)).first()
    if user is None or user.disabled_at is not None:
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
    """Create a user, or update the role and password of an existing one.

    A new password (not the same one again) ends the user's sessions and revokes their tokens:
    whoever knew the old one may have used it to log in or to issue a token.
    """
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    user = session.scalars(select(User).where(User.name == name)).first()
    if user is None:
        user = User(name=name, role=role)
        session.add(user)
    user.role = role
    if password is not None:
        set_password(session, user, password)
    session.flush()
    return user


def set_password(session: Session, user: User, password: str) -> int | None:
    """Give `user` `password`. A password other than the current one ends the user's sessions
    and revokes their API tokens (whoever knew the old one may have used it to log in or to
    issue a token): the number of tokens revoked. The same password again changes nothing and
    ends nothing: None, so that what callers report is what happened.
    """
    if user.id is not None and check_password(user, password):
        return None
    revoked = 0
    if user.id is not None:
        end_sessions(user)
        session.flush()
        revoked = revoke_tokens(session, user)
    user.password_hash = hash_password(password)
    return revoked


def assign_topic(session: Session, topic_id: str, user_name: str) -> Assignment:
    """Give a topic to an assessor (idempotent)."""
    user = find_user(session, user_name)
    if session.get(Topic, topic_id) is None:
        raise LookupError(f"no topic {topic_id!r} (import topics first)")
    if user.role != "assessor":
        raise CampaignError(f"{user_name} is an {user.role}, not an assessor")
    if is_adjudicator(session, user.id, topic_id):
        raise CampaignError(f"{user_name} adjudicates topic {topic_id}, so cannot assess it")
    row = {"topic_id": topic_id, "user_id": user.id, "created_at": utcnow()}
    insert_absent(session, Assignment, row, ["topic_id", "user_id"])  # once, if racing
    return session.scalars(
        select(Assignment).where(Assignment.topic_id == topic_id, Assignment.user_id == user.id)
    ).one()


def is_adjudicator(session: Session, user_id: int, topic_id: str) -> bool:
    """Whether the user was given `topic_id` to adjudicate (`people.adjudicators`; an
    adjudicator sees both assessors' work, so is never given the topic to assess)."""
    found = session.scalars(
        select(TopicAdjudicator.id).where(
            TopicAdjudicator.topic_id == topic_id, TopicAdjudicator.user_id == user_id
        )
    ).first()
    return found is not None


def unassign_topic(session: Session, topic_id: str, user_name: str) -> None:
    """Take a topic away from an assessor; their judgements of it are deleted with it."""
    user = find_user(session, user_name)
    assignment = session.scalars(
        select(Assignment).where(Assignment.topic_id == topic_id, Assignment.user_id == user.id)
    ).first()
    if assignment is None:
        raise LookupError(f"topic {topic_id} is not assigned to {user_name}")
    session.delete(assignment)

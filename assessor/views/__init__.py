"""Blueprints: parse the request, call a use case, render a template, fragment or JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Register every blueprint of the assessor on `app` (each package part adds its own line)."""
    from assessor.views import api, auth

    app.register_blueprint(auth.blueprint)
    app.register_blueprint(api.blueprint)

    from assessor.views import assess, organiser

    app.register_blueprint(assess.blueprint)
    app.register_blueprint(organiser.blueprint)

    from assessor.views import twophase  # issue 6: the 2005 two-phase screen and topic modes

    app.register_blueprint(twophase.blueprint)

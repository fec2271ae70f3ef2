"""Blueprints: parse the request, call a use case, render a template, fragment or JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Register every blueprint of the assessor on `app`."""
    from assessor.web.views import (
        accounts,
        agreement,
        api,
        assess,
        assignment_matrix,
        auth,
        campaign_imports,
        notes,
        organiser,
        pools_admin,
        report,
        twophase,
        viewing,
    )

    app.register_blueprint(auth.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(assess.blueprint)
    app.register_blueprint(organiser.blueprint)
    app.register_blueprint(twophase.blueprint)
    app.register_blueprint(agreement.blueprint)
    app.register_blueprint(viewing.blueprint)
    app.register_blueprint(report.blueprint)
    app.register_blueprint(notes.blueprint)
    app.register_blueprint(campaign_imports.blueprint)
    app.register_blueprint(pools_admin.blueprint)
    app.register_blueprint(accounts.blueprint)
    app.register_blueprint(assignment_matrix.blueprint)

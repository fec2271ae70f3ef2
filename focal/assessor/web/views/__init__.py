"""Blueprints: parse the request, call a use case, render a template, fragment or JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Register every blueprint of the assessor on `app`."""
    from focal.assessor.web import words
    from focal.assessor.web.views import auth
    from focal.assessor.web.views.api import operations as api
    from focal.assessor.web.views.api import viewing
    from focal.assessor.web.views.assess import notes, twophase
    from focal.assessor.web.views.assess import pages as assess
    from focal.assessor.web.views.organiser import accounts, adjudicate, agreement, report
    from focal.assessor.web.views.organiser import imports as campaign_imports
    from focal.assessor.web.views.organiser import matrix as assignment_matrix
    from focal.assessor.web.views.organiser import pools as pools_admin
    from focal.assessor.web.views.organiser import settings as campaign_settings
    from focal.assessor.web.views.organiser import topics as organiser

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
    app.register_blueprint(campaign_settings.blueprint)
    app.register_blueprint(accounts.blueprint)
    app.register_blueprint(assignment_matrix.blueprint)
    app.register_blueprint(adjudicate.blueprint)
    words.register_filters(app)

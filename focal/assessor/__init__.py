"""Focal's assessor: the web app, its database and the organiser's commands.

Layers, lowest first: `store` <- `judging` <- `campaign` <- `web` <- `cli`; all may import
`pooling` and `evaluation`, never the reverse. The app factory is
`focal.assessor.web.app.create_app`.

Internal: the assessor is used through the `focal` command and the web app (docs/assessor.md),
not from Python; none of its modules is an API, and any may change between releases.
"""

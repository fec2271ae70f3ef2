"""Focal's assessor: the web app, its database and the organiser's commands.

Depends on `evaluation` and `pooling`, never the reverse. Flask is imported inside
`create_app` so that `assessor.cli` (the `focal` entry point) stays cheap to import.
"""

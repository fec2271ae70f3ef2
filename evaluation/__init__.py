"""Focal's evaluation core: XML text model, INEX file formats, measures, relevance rules and
statistics.

Pure Python plus numpy/scipy: nothing here imports Flask, SQLAlchemy, `pooling` or `assessor`.
Layers, lowest first: `output` <- `text` <- `formats` <- `measures | relevance | baseline |
statistics` <- `cli`; `errors` is shared by all (docs/architecture.md).
"""

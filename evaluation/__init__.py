"""Focal's evaluation core: XML text model, INEX file formats, measures and relevance rules.

Pure Python plus numpy/scipy: nothing here imports Flask, SQLAlchemy, `pooling` or `assessor`.
Layers, lowest first: `text` <- `formats` <- `measures | relevance | baseline` <- `cli`;
`errors` is shared by all (docs/architecture.md).
"""

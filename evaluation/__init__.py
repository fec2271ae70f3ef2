"""Focal's evaluation core: the XML text model, INEX file formats and the INEX measures.

Pure Python plus numpy/scipy: nothing here may import Flask or SQLAlchemy.
"""

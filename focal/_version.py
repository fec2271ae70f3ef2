"""Focal's version, in one place: pyproject.toml reads it (`[tool.setuptools.dynamic]`),
`focal.__version__` and `focal --version` show it (docs/packaging.md).

A module of its own that imports nothing, so that `focal --version`, in `focal.assessor`, reads it
without importing the Python API that `focal/__init__.py` names.
"""

__version__ = "0.1.0"

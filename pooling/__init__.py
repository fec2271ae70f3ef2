"""Pooling: which articles of the submitted runs the assessors will read (pure Python)."""

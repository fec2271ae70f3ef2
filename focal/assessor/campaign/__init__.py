"""An organiser's campaign: imports, pools, users and assignments, qrels import/export, demo.

Use cases that take a session and commit nothing on their own unless they say so (no Flask).
Imports `judging`, `store`, `pooling` and `evaluation`.
"""

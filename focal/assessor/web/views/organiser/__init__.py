"""The organiser's pages: topics and progress, users, imports, pools, assignments, double judging,
the report."""

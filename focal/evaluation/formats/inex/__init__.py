"""INEX XML files: topics (INEX and TREC-style) and XML run submissions of 2007-2010."""

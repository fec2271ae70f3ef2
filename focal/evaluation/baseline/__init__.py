"""A BM25 baseline that writes article, element and passage runs for the demo and the tests.

`bm25` ranks a collection for INEX topics. Imports `formats` and `text`, nothing above.
"""

"""INEX 2002-2006 element files: element qrels (`qrels`) and element runs with canonical paths
(`runs`)."""

"""Collections in the formats corpora ship in: JSON Lines, TSV, TREC SGML, HTML pages, plain text.

Each reader streams a collection as `SourceDocument`s, each a document of Focal's text model
(spec section 1) built from a small XML tree (`documents.build_tree`: a title, a body and its
paragraphs or headings as elements), so that offsets, highlighting, qrels and every passage
measure work on them unchanged. `detect.open_collection` picks the reader from a path;
`segments` resolves segment ids (`docid#n`) to character ranges and `answers` reads RAG answers
with citations. The mapping of each format is in docs/collections.md.
"""

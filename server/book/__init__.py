"""The book as data: a Chunk (one retrievable passage and how to cite it), the outline recorded at
ingest, IEEE citations, and page URLs compared across hosts and base paths."""

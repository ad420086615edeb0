"""Text that both ingest and the question path read: sentences, Markdown blocks, a book's words
(its vocabulary and speller), and what is masked before anything is stored."""

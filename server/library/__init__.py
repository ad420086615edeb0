"""The book as a whole, read back from the index: its outline for readers' AI tools, its pages' text,
llms.txt, and the shelf of indexed books."""

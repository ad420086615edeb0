"""The book as a whole, read back from the index: its outline, its pages' text, llms.txt."""

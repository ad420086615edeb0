"""The book as a course: its outline (parts → pages → sections), which page the reader is on,
and answers to questions about the book, a part or the page rather than about one passage."""

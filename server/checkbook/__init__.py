"""`textbook-chat check-book`: does the assistant behave on this book? Invariants that need no
answer key (a typo is no error, a request about a highlight is never refused, a citation names
the section its words stand under, …), asked through the real /chat endpoint."""

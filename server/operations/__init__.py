"""Running the server for a term: the books in the index, what the data folder holds, and
backups of it (the `books`, `remove-book`, `status`, `backup` and `restore` commands)."""

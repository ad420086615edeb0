"""`python -m server …`: the `textbook-chat` command, from a checkout without installing it."""
from server.cli import main

main()

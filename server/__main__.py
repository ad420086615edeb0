"""`python -m server …`: the `textbook-chat` command, from a checkout without installing it."""
from .cli import main

main()

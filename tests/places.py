"""Where things are: the repository, the development books and question sets beside it, the model."""
from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPORA = SHARED / "corpora"
EVAL = SHARED / "eval"
PHYSICAL_AI = CORPORA / "physical-ai-book" / "docs"
RUST_BOOK = CORPORA / "rust-book"
SAMPLE_BOOK = REPO / "sample-book"
# the embedding model, built once per machine for every checkout (the Makefile's TEXTBOOK_CHAT_MODELS_DIR)
MODELS_DIR = Path(os.environ.get("TEXTBOOK_CHAT_MODELS_DIR") or Path.home() / ".cache" / "textbook-chat" / "models")

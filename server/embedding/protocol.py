"""What the rest of the server needs from an embedder: one Protocol for every module that takes
one (retrieval, ingest, the highlighted passage's pieces, the extractive generator). The real
one is `embedder.Embedder`; tests may pass any object with these members."""
from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np


class TextEmbedder(Protocol):
    model_name: str
    dim: int  # length of every vector

    def embed_query(self, text: str) -> np.ndarray:
        """One question: a (dim,) float32 unit vector."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Passages: an (n, dim) float32 array of unit rows."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens the model sees for `text` before truncation (chunking sizes by these)."""
        ...


def passages_of(texts: Sequence[str]) -> list[str]:
    """`embed_documents`' argument as a list: a single string is a caller's mistake, said at once
    (it would embed each of its characters)."""
    if isinstance(texts, str):
        raise TypeError("embed_documents takes a list of texts, not a single string")
    return list(texts)

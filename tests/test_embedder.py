"""The Embedder with the real all-MiniLM-L6-v2, provisioned once per machine (tests/places.py MODELS_DIR)."""
from __future__ import annotations


import numpy as np
import pytest

from places import MODELS_DIR, REPO
from server.embedding.embedder import Embedder, load_embedder
from server.settings import Settings

SETTINGS = Settings(data_dir=REPO / "data", models_dir=MODELS_DIR)  # the machine's model, as every other test

LONG_TEXT = " ".join(
    f"Paragraph {i}: a robot arm with {i + 2} joints needs inverse kinematics to place its gripper."
    for i in range(20)
)
TEXTS = [
    "ok",
    "How do I reset my password?",
    "Photosynthesis converts light energy into chemical energy.",
    LONG_TEXT,
    "def add(a, b):\n    return a + b",
    "A short one.",
    "Inverse kinematics computes joint angles that reach a target pose of the end effector.",
]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return load_embedder(SETTINGS, log=lambda _: None)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_model_identity(embedder):
    assert embedder.dim == 384
    assert embedder.model_name == "sentence-transformers/all-MiniLM-L6-v2"  # "auto" with no index: the English model
    assert embedder.batch_size == SETTINGS.embedding_batch_size
    assert embedder.max_tokens == 256


def test_documents_are_float32_unit_rows(embedder):
    vectors = embedder.embed_documents(TEXTS)
    assert vectors.shape == (len(TEXTS), 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_no_documents_give_an_empty_matrix(embedder):
    assert embedder.embed_documents([]).shape == (0, 384)
    with pytest.raises(TypeError):
        embedder.embed_documents("a single string")


def test_query_is_a_unit_vector_matching_the_document_embedding(embedder):
    query = embedder.embed_query("How do I reset my password?")
    assert query.shape == (384,) and query.dtype == np.float32
    assert np.linalg.norm(query) == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_allclose(query, embedder.embed_documents(["How do I reset my password?"])[0], atol=1e-5)


def test_cached_query_cannot_be_altered_by_the_caller(embedder):
    first = embedder.embed_query("what is a quaternion?")
    first[:] = 0.0
    again = embedder.embed_query("what is a quaternion?")
    assert np.linalg.norm(again) == pytest.approx(1.0, abs=1e-5)


def test_paraphrases_are_closer_than_unrelated_texts(embedder):
    a, b, unrelated = embedder.embed_documents([
        "How do I reset my password?",
        "I forgot my password and need to change it.",
        "The mitochondria is the powerhouse of the cell.",
    ])
    assert cosine(a, b) > cosine(a, unrelated) + 0.3


def test_batching_does_not_change_vectors(embedder):
    small_batches = Embedder(embedder.model_name, embedder.model_dir, batch_size=3)
    batched = small_batches.embed_documents(TEXTS)
    one_by_one = np.stack([embedder.embed_documents([text])[0] for text in TEXTS])
    np.testing.assert_allclose(batched, one_by_one, atol=1e-5)


def test_texts_of_unlike_lengths_are_embedded_apart_in_their_order(embedder):
    from server.embedding.embedder import _alike_lengths

    sentence, paragraph = "Sampling makes time discrete.", "Quantization makes amplitude discrete. " * 20
    texts = [paragraph, sentence, "Aliasing folds high tones down.", paragraph + " More."]
    assert _alike_lengths(texts) == [[1, 2], [0, 3]]  # the sentences apart from the paragraphs
    together = embedder.embed_documents(texts)
    alone = np.vstack([embedder.embed_documents([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-5)


def test_count_tokens_is_not_truncated(embedder):
    assert embedder.count_tokens("hello world") == 4  # [CLS] hello world [SEP]
    assert embedder.count_tokens(LONG_TEXT) > 256
    assert embedder.count_tokens("") == 2


def test_rejects_a_zero_batch(embedder):
    with pytest.raises(ValueError):
        Embedder(embedder.model_name, embedder.model_dir, batch_size=0)


def test_model_threads_sleep_between_queries(embedder):
    # spinning workers cost twice a query's time in CPU that concurrent requests need
    session = embedder._model.model.model
    assert session._sess_options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    before = embedder.embed_documents(["a query about ownership"])[0]
    assert np.allclose(embedder.embed_query("a query about ownership"), before, atol=1e-5)


def test_whitespace_joins_count_as_the_sum_of_their_parts(embedder):
    from server.ingest.chunker import _Counts

    counts = _Counts(embedder.count_tokens)
    parts = ["Ownership › What Is Ownership?", "Each value in Rust has an *owner*.",
             "```rust\nlet s = String::from(\"hello\");\n```", "", "Überprüfung: naïve café (θ₁, θ₂)!"]
    assert counts.joined(parts) == embedder.count_tokens("\n\n".join(parts))
    assert counts.joined(parts[:2]) == embedder.count_tokens(" ".join(parts[:2]))

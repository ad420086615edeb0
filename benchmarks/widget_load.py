"""What the widget costs a page: bytes downloaded (minified + gzip) and main-thread time at
load in Chromium (CDP ScriptDuration/TaskDuration, page with the widget minus the same page
without it; median of several loads). Also what the first opening of the panel costs: the
bytes of widget-panel.js, which widget.js loads then, and the script time from the click until
the panel shows.

    .venv/bin/python benchmarks/widget_load.py [DIR]   # DIR: another build's widget*.js, to compare
"""
from __future__ import annotations

import functools
import gzip
import http.server
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.common import REPO, machine, median, save_result  # noqa: E402

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>t</title><link rel="icon" href="data:,"></head>
<body><main><h1>A page</h1><p>Some text to read.</p></main>{script}</body></html>"""
RUNS = 15


def _chromium() -> str:
    return os.environ.get("TEXTBOOK_CHAT_CHROMIUM") or shutil.which("chromium") or "chromium"


def main(static: Path = REPO / "server" / "static") -> dict:
    raw = (static / "widget.js").read_bytes()
    panel = (static / "widget-panel.js").read_bytes() if (static / "widget-panel.js").is_file() else b""
    work = Path(tempfile.mkdtemp(prefix="tc-widget-"))
    (work / "widget.js").write_bytes(raw)
    (work / "widget-panel.js").write_bytes(panel)
    (work / "without.html").write_text(PAGE.format(script=""))
    (work / "with.html").write_text(PAGE.format(script='<script src="/widget.js" data-api="http://127.0.0.1:9"></script>'))
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(work))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    costs: dict[str, list[float]] = {"script_ms": [], "task_ms": [], "open_script_ms": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        for _ in range(RUNS):
            measured = {}
            for name in ("without", "with"):
                context = browser.new_context()
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Performance.enable")
                page.goto(f"{base}/{name}.html", wait_until="load")
                page.wait_for_timeout(300)  # let the widget finish its first render
                metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                measured[name] = metrics
                if name == "with" and panel:
                    page.locator("#tc-bubble").click()
                    page.locator("#tc-panel").wait_for(state="visible")
                    opened = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                    costs["open_script_ms"].append((opened["ScriptDuration"] - metrics["ScriptDuration"]) * 1000)
                context.close()
            costs["script_ms"].append((measured["with"]["ScriptDuration"] - measured["without"]["ScriptDuration"]) * 1000)
            costs["task_ms"].append((measured["with"]["TaskDuration"] - measured["without"]["TaskDuration"]) * 1000)
        browser.close()
    server.shutdown()
    shutil.rmtree(work, ignore_errors=True)
    result = {"machine": machine(), "files_downloaded": ["widget.js"], "raw_bytes": len(raw),
              "gzip_bytes": len(gzip.compress(raw, 9)), "runs": RUNS,
              "main_thread_script_ms_median": round(median(costs["script_ms"]), 2),
              "main_thread_task_ms_median": round(median(costs["task_ms"]), 2),
              **({"on_first_open": {"file": "widget-panel.js", "raw_bytes": len(panel),
                                   "gzip_bytes": len(gzip.compress(panel, 9)),
                                   "script_ms_median": round(median(costs["open_script_ms"]), 2)}} if panel else {})}
    save_result("widget_load", result)
    return result


if __name__ == "__main__":
    main(Path(sys.argv[1])) if len(sys.argv) > 1 else main()

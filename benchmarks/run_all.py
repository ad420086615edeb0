"""Every benchmark, one after the other; each writes benchmarks/out/<name>.json.

    make bench
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import (calibration, chat_overhead, concurrency, ingest_and_query,  # noqa: E402
                        library_scale, retrieval_quality, widget_load)
from benchmarks.common import machine  # noqa: E402

if __name__ == "__main__":
    print(f"machine: {machine()}")
    ingest_and_query.main()
    chat_overhead.main()
    retrieval_quality.main()
    calibration.main()
    concurrency.main()
    library_scale.main()
    widget_load.main()

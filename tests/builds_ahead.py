"""pytest plugin: the suite's npm installs and Docusaurus builds made ahead, while other tests run.

Some tests wait on a real build: the corpora sites (tests/built_sites.py), the sample site
(tests/sample_site.py) or tests/docusaurus-site's packages (tests/docusaurus_site.py); their
modules are marked `needs_build`, and a browser test says so by its fixtures (BUILD_FIXTURES).
Each takes a lock and finds a finished build cached. On the whole suite under pytest-xdist, the
controller starts one background process that makes them all, and the marked modules run last:
the workers spend the minutes of `npm ci` and `docusaurus build` on other tests instead of waiting
on a lock. A run of chosen files builds nothing ahead. The process is stopped at the session's end
if it is still running (an unfinished build has no stamp and is made again next time).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
MARK = "needs_build"
BUILD_FIXTURES = {"sample_site_build", "site_packages"}  # tests/browser: conftest.py, test_docusaurus_site.py


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARK}: the module waits on a site build (tests/builds_ahead.py)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # stable: the marked modules after the others, each group in its own order (every xdist worker
    # collects the same list)
    items.sort(key=needs_build)


def needs_build(item: pytest.Item) -> bool:
    return item.get_closest_marker(MARK) is not None or bool(BUILD_FIXTURES & set(item.fixturenames))


def _builds_ahead(config: pytest.Config) -> bool:
    return (not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", 0))
            and config.args_source == pytest.Config.ArgsSource.TESTPATHS)


def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if not _builds_ahead(config):
        return
    from built_sites import CACHE

    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "builds-ahead.log", "w") as log:  # the child writes to its own copy of it
        config._builds_ahead = subprocess.Popen([sys.executable, __file__], cwd=HERE, stdout=log,
                                                stderr=subprocess.STDOUT, start_new_session=True)


def pytest_sessionfinish(session: pytest.Session) -> None:
    process = getattr(session.config, "_builds_ahead", None)
    if process is not None and process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait()


def _make_all() -> None:
    from built_sites import SITES, built_site
    from docusaurus_site import install_packages
    from sample_site import sample_site

    def log(message: str) -> None:
        print(message, flush=True)

    # the longest first, two at a time: both cores are busy with tests meanwhile
    work = [lambda: built_site("physical-ai-i18n"), lambda: sample_site(log=log), install_packages]
    work += [lambda name=name: built_site(name) for name in SITES if name != "physical-ai-i18n"]
    with ThreadPoolExecutor(max_workers=2) as pool:
        for future in [pool.submit(job) for job in work]:
            try:
                future.result()
            except Exception as exc:  # the test that needs it makes it again, and fails saying why
                log(f"not made ahead: {exc}")


if __name__ == "__main__":
    _make_all()

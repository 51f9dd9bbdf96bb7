"""A real headless Chromium for the browser tests (the view's, and the end-to-end test of `/view`): the distribution's `chromium`
(`$SESSION_KIT_CHROMIUM`, else /usr/bin/chromium or `chromium` on PATH), driven by Playwright
with its `executable_path`; no browser is ever downloaded. Without one these tests skip,
saying why; under `CI=true` they fail instead (`tests/run.sh` installs it where it can)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",  # as root in a container, Chromium's sandbox cannot start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests need {why} (CI=true: they must run)")
    pytest.skip(f"no browser: {why}")


def chromium_path() -> str | None:
    named = os.environ.get("SESSION_KIT_CHROMIUM")
    if named:
        return named
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


# Per module, not per session: the browser and Playwright's driver are child processes of the
# test run, and tests elsewhere check that no child of theirs outlives them (`os.waitpid(-1)`).
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package (pip install -e '.[test]')")
    executable = chromium_path()
    if executable is None:
        _missing("Chromium (apt-get install chromium)")
    # Playwright gives each launch a new, empty profile of its own (it refuses --user-data-dir).
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()

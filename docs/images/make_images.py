"""Remake the README's pictures from real renders: `view` of the real client's sample session
(tests/fixtures/real/) as a headless Chromium screenshot, and the status line of that session.

    .venv/bin/python docs/images/make_images.py     # writes docs/images/view.png, prints the status line

Needs the test extras (Playwright) and the distribution's Chromium, as the browser tests do.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SESSION = "266f5872-b716-4df1-b42b-7ca857a257ae"
PROJECT = "-tmp-real-fixture-project"
sys.path.insert(0, str(REPO))

from tests.support.browser import CHROMIUM_ARGS, chromium_path  # noqa: E402


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "claude"
        shutil.copytree(REPO / "tests" / "fixtures" / "real", root)
        env = {**os.environ, "CLAUDE_CONFIG_DIR": str(root), "SESSION_KIT_HOME": str(Path(tmp) / "state")}
        kit = [sys.executable, "-m", "session_kit"]
        page_file = Path(tmp) / "view.html"
        subprocess.run([*kit, "view", SESSION, "--output", str(page_file)], env=env, check=True, cwd=tmp)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 720}, color_scheme="light")
            page.goto(page_file.as_uri())
            page.screenshot(path=str(REPO / "docs" / "images" / "view.png"))
            browser.close()
        event = {"session_id": SESSION, "transcript_path": str(root / "projects" / PROJECT / f"{SESSION}.jsonl")}
        line = subprocess.run(
            [*kit, "statusline"], env=env, input=json.dumps(event), capture_output=True, text=True, check=True
        )
        print(line.stdout.strip())


if __name__ == "__main__":
    main()

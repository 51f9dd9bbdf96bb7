"""View: `view` on the big session against `preprocess` of it, the page's size, and the page
opened in Chromium.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import big_session
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row

# Opens a page in the distribution's Chromium N times; prints each load's `loadEventEnd` (ms
# from navigation start: the whole document parsed and laid out, the timeline drawn).
BROWSER_LOAD = """
import json, sys
from playwright.sync_api import sync_playwright
url, chromium, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=chromium, args=args)
    times = []
    for _ in range(rounds):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url, wait_until="load")
        page.wait_for_selector("#timeline .lane")
        times.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
        page.close()
    browser.close()
print(json.dumps(times))
"""


def _chromium() -> str | None:
    named = os.environ.get("SESSION_KIT_CHROMIUM")
    return named or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium"))


def _view_note(data: bytes) -> str:
    doc = json.loads(data)
    return f"{doc['bytes'] / 1e6:.2f} MB page, {doc['lanes']} lanes, {doc['calls']} calls, {doc['cut_chars'] / 1e6:.1f} MB of text cut"


@benchmark("view")
def bench_view(ctx: Context) -> list[Row]:
    """`view <big>` against `preprocess <big>` in the same rounds: at most 2x; the page under
    10 MB; the page opened in a headless Chromium: loaded, timeline drawn, in under 1 s."""
    root, _, sid, mb = big_session(ctx)
    with tempfile.TemporaryDirectory() as out:
        page = Path(out) / "view.html"
        pre = Command.of(
            "preprocess big (same rounds)",
            [*ctx.kit, "preprocess", sid, "--claude-dir", root, "--output-dir", out, "--json"],
        )
        kit = Command.of(
            "view big", [*ctx.kit, "view", sid, "--claude-dir", root, "-o", page, "--json"], inspect=_view_note
        )
        m_pre, m_view = ctx.measure(pre, kit, slow=True)
        rows = [
            Row.ratio_row("view", f"view <big>, time ({mb:.0f} MB session)", m_view, m_pre, max_ratio=2),
            Row.memory_row("view", "  same, peak RSS", m_view, ctx.python_pass(), note="-"),
        ]
        if not page.exists():
            return rows
        size = page.stat().st_size / 1e6
        rows.append(Row("view", "  page size", size, "MB", target="< 10 MB", status=Row._status(size < 10), note="-"))
        chromium = _chromium()
        if chromium is None:
            rows.append(Row("view", "  page open in Chromium", None, "s", status="info", note="no chromium"))
            return rows
        ctx.log("  view big in Chromium ...")
        done = subprocess.run(
            [sys.executable, "-c", BROWSER_LOAD, page.as_uri(), chromium, str(ctx.scale.slow_repeat + 1)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            last = done.stderr.strip().splitlines()[-1:] or [""]
            rows.append(Row("view", "  page open in Chromium", None, "s", status="ERROR", note=last[0]))
            return rows
        times = json.loads(done.stdout)[1:]  # the first load warms the browser's caches
        best = min(times) / 1000
        rows.append(
            Row(
                "view",
                "  page open in Chromium (load, timeline drawn)",
                best,
                "s",
                target="< 1 s",
                status=Row._status(best < 1),
                note=f"loads: {', '.join(f'{t:.0f} ms' for t in times)}",
            )
        )
    return rows

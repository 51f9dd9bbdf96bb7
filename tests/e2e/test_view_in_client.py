"""`/session-kit:view` in the real client (the plugin route), and the page of what the client
wrote, in a real headless Chromium.

One session runs two agents at once (a Plan agent, and a general-purpose agent whose `Bash`
call fails); then `/session-kit:view` runs the kit's `!` line in that session. What the fake
API receives proves the page was written to the session's scratch dir and its path handed to
the model; the page itself has the main lane and one lane per agent, the failure marked in
the worker's lane. The same transcript copied without its `subagents/` still gets a lane per
agent, from the spawning calls.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from session_kit.base.encoding import encode_project_dir

from .fake_api import Script, agent, bash
from .routes import Route, plugin_route

MISSING = "/nonexistent-view-e2e"


def script() -> Script:
    return Script(
        main={
            "VIEW-START": [
                [
                    agent("Plan", "VIEW-PLAN-E2E: design", description="Design it", background=False),
                    agent("general-purpose", "VIEW-WORKER-E2E: check", description="Check it", background=False),
                ],
                "Both agents are done.",
            ],
        },
        agents={
            "VIEW-PLAN-E2E": ["Plan report."],
            "VIEW-WORKER-E2E": [[bash(f"cat {MISSING}")], "Worker report: the file is missing."],
        },
    )


@pytest.fixture(scope="module")
def route(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with plugin_route(claude_binary, tmp_path_factory.mktemp("view-plugin"), script()) as route:
        run = route.run("VIEW-START: run two agents")
        route.session_id = run.session_id
        yield route


def page_path(route: Route) -> Path:
    key = encode_project_dir(str(route.project.resolve()))
    return route.state_root / "projects" / key / "sessions" / route.session_id / f"view-{route.session_id}.html"


def lanes_in(browser, path: Path) -> list[tuple[str, str]]:
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(path.as_uri())
        lanes = page.locator(".lane").evaluate_all("els => els.map(e => [e.dataset.lane, e.className])")
        assert errors == []
        return [tuple(lane) for lane in lanes]
    finally:
        context.close()


def test_view_writes_the_page_to_the_scratch_dir_and_gives_the_model_its_path(route: Route, browser):
    before = len(route.fake.exchanges)
    route.run(route.command("view"), resume=route.session_id)
    sent = [e.text() for e in route.fake.exchanges[before:] if e.conversation == "main"][-1]
    path = page_path(route)
    assert str(path) in sent, sent[-2000:]
    assert "failed" not in sent.split(str(path))[0][-200:]  # the `!` line did not fail
    lanes = lanes_in(browser, path)
    assert len(lanes) == 3 and lanes[0][0] == "main"
    failed = [key for key, css in lanes if "failed" in css.split()]
    assert len(failed) == 1 and failed[0] != "main"  # the worker's lane, where `cat` failed


def test_a_copy_without_its_agents_logs_still_has_a_lane_per_agent(route: Route, browser, tmp_path: Path):
    source = route.home.projects / encode_project_dir(str(route.project.resolve()))
    copy = tmp_path / "copied" / "projects" / "p"
    copy.mkdir(parents=True)
    shutil.copy(source / f"{route.session_id}.jsonl", copy)
    out = tmp_path / "page.html"
    done = subprocess.run(
        [sys.executable, "-m", "session_kit", "view", str(copy / f"{route.session_id}.jsonl"), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lanes = lanes_in(browser, out)
    assert len(lanes) == 3 and all("missing" in css.split() for _, css in lanes[1:])

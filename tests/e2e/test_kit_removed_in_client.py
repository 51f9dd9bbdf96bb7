"""The kit removed the wrong way round, in the real client: its package deleted (as `pip`,
`pipx` or `uv tool uninstall` would) while its hooks and slash commands stay installed.

The kit is installed from a throw-away environment (a venv holding a copy of the package),
which is then deleted. A session must still run with no hook error in its transcript (the
hook commands are guarded: exit 0, silent), and a kit slash command must reach the model with
what happened instead of being aborted by the client. Also: a kit slash command as the very
first prompt of a new session (nothing of it written yet) reaches the model.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .client import Claude
from .fake_api import FakeMessagesAPI, Script
from .routes import REPO, Route, installed_route, make_home, plugin_route
from .transcript import read_entries

BARE_PATH = "/usr/bin:/bin"  # no `session-kit` anywhere on it


def throwaway_kit(folder: Path) -> Path:
    """A venv whose own copy of the package is the kit; its dependencies come from the tests'."""
    venv = folder / "gone-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    (site,) = venv.glob("lib/python*/site-packages")
    shutil.copytree(REPO / "src" / "session_kit", site / "session_kit", ignore=shutil.ignore_patterns("__pycache__"))
    deps = [p for p in sys.path if p.endswith("site-packages")]
    (site / "kit-deps.pth").write_text("\n".join(deps) + "\n")
    return venv


@pytest.fixture(scope="module")
def removed(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("kit-removed")
    home, project = make_home(tmp)
    venv = throwaway_kit(tmp)
    env = {**home.env(), "PATH": BARE_PATH}
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "session_kit", "install"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stdout + done.stderr
    launcher = home.home / ".local" / "state" / "claude-session-kit" / "hook"
    assert "/hook session-start" in (home.config_dir / "settings.json").read_text()
    assert str(venv) in launcher.read_text()  # the hooks run that venv
    shutil.rmtree(venv)
    with FakeMessagesAPI(Script(main={"KIT-GONE": ["Still here."]})) as fake:
        yield Route("installed", Claude(claude_binary, home, fake, cwd=project), home, project, ())


def hook_errors(transcript: Path) -> list[dict]:
    return [
        e["attachment"]
        for e in read_entries(transcript)
        if e.get("type") == "attachment"
        and "hook" in str(e.get("attachment", {}).get("type", ""))
        and "error" in str(e.get("attachment", {}).get("type", ""))
    ]


def test_a_session_runs_with_no_hook_error_once_the_package_is_gone(removed: Route):
    run = removed.run("KIT-GONE: say hello", env={"PATH": BARE_PATH})
    removed.session_id = run.session_id
    assert removed.fake.requests_containing("KIT-GONE"), removed.fake.log_tail()
    assert hook_errors(run.transcript_path) == []
    again = removed.run("KIT-GONE: once more", resume=run.session_id, env={"PATH": BARE_PATH})
    assert hook_errors(again.transcript_path) == []


def test_a_kit_slash_command_once_the_package_is_gone_reaches_the_model_saying_so(removed: Route):
    before = len(removed.fake.main_requests())
    removed.run("/session-info", resume=removed.session_id, env={"PATH": BARE_PATH})
    sent = [r.text() for r in removed.fake.main_requests()[before:]]
    assert sent and "session-kit exit status 127" in sent[-1], removed.fake.log_tail()


@pytest.fixture(scope="module")
def installed(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with installed_route(claude_binary, tmp_path_factory.mktemp("first-prompt-installed"), Script()) as route:
        yield route


@pytest.fixture(scope="module")
def plugin(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with plugin_route(claude_binary, tmp_path_factory.mktemp("first-prompt-plugin"), Script()) as route:
        yield route


@pytest.fixture(params=["installed", "plugin"], scope="module")
def route(request: pytest.FixtureRequest) -> Route:
    return request.getfixturevalue(request.param)


@pytest.mark.parametrize("name", ["session-info", "preprocess-session", "plan"])
def test_a_kit_command_as_the_first_prompt_of_a_new_session_reaches_the_model(route: Route, name: str):
    before = len(route.fake.main_requests())
    run = route.run(route.command(name))
    sent = [r.text() for r in route.fake.main_requests()[before:]]
    assert sent, f"the client aborted {name}: " + json.dumps(run.result)[:500]
    assert run.session_id in sent[0] or "session-kit exit status" in sent[0]

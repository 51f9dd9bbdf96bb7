"""The kit inside the real client by its two routes: `./install.sh`, and `--plugin-dir <repo>`.

Owns: an isolated home for a route (with a project folder and, optionally, the person's own
command files), running `install.sh` into it, and `Route`: one client with its home, project
and plugin dirs, the kit's state root in that home, and how a kit slash command is typed on
that route (bare `/name` when installed, `/session-kit:name` from a plugin). Used by the
tests of the hooks and of the slash commands; knows nothing of what they check.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .client import Claude, ClaudeHome, ClaudeRun
from .fake_api import FakeMessagesAPI, Script

REPO = Path(__file__).resolve().parents[2]
PLUGIN_NAME = "session-kit"  # .claude-plugin/plugin.json


@dataclass
class Route:
    name: str  # "installed", "plugin" (--plugin-dir) or another plugin route
    claude: Claude
    home: ClaudeHome
    project: Path
    plugin_dirs: tuple[Path, ...]
    session_id: str = ""

    @property
    def state_root(self) -> Path:
        return self.home.home / ".local" / "state" / "claude-session-kit"

    @property
    def fake(self) -> FakeMessagesAPI:
        return self.claude.fake

    def run(self, prompt: str, **kw) -> ClaudeRun:
        kw.setdefault("timeout", 300)
        return self.claude.run(prompt, plugin_dirs=self.plugin_dirs, **kw)

    def command(self, name: str) -> str:
        """How a kit slash command is typed on this route."""
        return f"/{name}" if self.name == "installed" else f"/{PLUGIN_NAME}:{name}"


def make_home(tmp: Path, *, commands: Mapping[str, str] | None = None) -> tuple[ClaudeHome, Path]:
    """An isolated home under `tmp` (with the person's own `commands`) and a project folder."""
    home = ClaudeHome.create(tmp / "client")
    if commands:
        folder = home.config_dir / "commands"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in commands.items():
            (folder / f"{name}.md").write_text(text)
    project = tmp / "my project"
    project.mkdir()
    return home, project


def install_sh(home: ClaudeHome, *args: str) -> subprocess.CompletedProcess[str]:
    """`./install.sh` (or `--uninstall`) into the isolated home, with the test interpreter."""
    env = {**home.env(), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHON": sys.executable}
    return subprocess.run(
        ["bash", str(REPO / "install.sh"), *args], capture_output=True, text=True, env=env, timeout=600
    )


@contextmanager
def installed_route(
    binary: Path, tmp: Path, script: Script, *, commands: Mapping[str, str] | None = None, settings: bytes | None = None
) -> Iterator[Route]:
    """The kit installed with `./install.sh` into a fresh home; a fake API playing `script`."""
    home, project = make_home(tmp, commands=commands)
    if settings is not None:
        (home.config_dir / "settings.json").write_bytes(settings)
    done = install_sh(home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "current" in done.stdout, done.stdout
    with FakeMessagesAPI(script) as fake:
        yield Route("installed", Claude(binary, home, fake, cwd=project), home, project, ())


@contextmanager
def plugin_route(
    binary: Path, tmp: Path, script: Script, *, commands: Mapping[str, str] | None = None
) -> Iterator[Route]:
    """The repository given to the client with `--plugin-dir`; nothing installed."""
    home, project = make_home(tmp, commands=commands)
    with FakeMessagesAPI(script) as fake:
        yield Route("plugin", Claude(binary, home, fake, cwd=project), home, project, (REPO,))

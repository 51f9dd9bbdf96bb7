"""The kit inside the real client by its routes: `./install.sh`, `--plugin-dir <repo>`, and a
marketplace install of a copy of the checkout.

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

from .client import Claude, ClaudeHome, ClaudeRun, client_env
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


def _tracked_copy(dest: Path) -> Path:
    """The repository's tracked and new files (what a git clone would hold, plus work in
    progress), without caches: `marketplace add` of a folder copies all of it."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        source, target = REPO / name, dest / name
        if source.is_symlink():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(os.readlink(source))
        elif source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
            target.chmod(source.stat().st_mode)
    return dest


@contextmanager
def marketplace_route(
    binary: Path, tmp: Path, script: Script, *, commands: Mapping[str, str] | None = None
) -> Iterator[Route]:
    """A copy of the checkout added as a marketplace and the plugin installed from it
    (`claude plugin marketplace add` + `claude plugin install`), as a person installs it."""
    home, project = make_home(tmp, commands=commands)
    source = _tracked_copy(tmp / "checkout")
    # as `bash tests/run.sh` leaves a checkout: `.venv` a link to the environment in the user cache
    (tmp / "user-cache-venv" / "bin").mkdir(parents=True)
    (tmp / "user-cache-venv" / "bin" / "python").write_bytes(b"\0" * (1 << 20))
    (source / ".venv").symlink_to(tmp / "user-cache-venv")
    with FakeMessagesAPI(script) as fake:
        env = client_env(home, fake.base_url)
        for args in (["plugin", "marketplace", "add", str(source)], ["plugin", "install", "session-kit@session-kit"]):
            done = subprocess.run(
                [str(binary), *args],
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
                cwd=project,
                stdin=subprocess.DEVNULL,
            )
            assert done.returncode == 0, done.stdout + done.stderr
        yield Route("marketplace", Claude(binary, home, fake, cwd=project), home, project, ())

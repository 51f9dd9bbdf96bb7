"""A real PostgreSQL server for the team tests, started from the distribution's binaries.

`start` runs `initdb` and `pg_ctl` into a temporary folder: a free loopback port and a unix
socket in that folder, password (SCRAM) authentication over TCP for a role named `kit`. As
root (CI runs as root; `initdb` refuses it) the server runs as the unprivileged `nobody`
(through `runuser`, else `setpriv`), the folder its own. The binaries are looked for in
`$SESSION_KIT_POSTGRES`, `pg_config --bindir`, `/usr/lib/postgresql/*/bin` (newest first), then
`PATH`. `NoServer` says why none could start (tests/run.sh installs the package where it can).

The fixtures: `pg_server`, one server for the whole run (skipped, saying why, when none can
start; under `CI=true` failed instead), and `team_db`, a new database for each test with
`$SESSION_KIT_TEAM_URL` pointing at it. A test module or conftest imports them by name.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PASSWORD = "kit-pw-" + uuid.uuid4().hex[:12]
ROLE = "kit"
RUN_AS = "nobody"


class NoServer(Exception):
    """No PostgreSQL server could be started here (the message says why)."""


def bindir() -> Path:
    candidates = [os.environ.get("SESSION_KIT_POSTGRES", "")]
    try:
        candidates.append(subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True).stdout.strip())
    except OSError:
        pass
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True)
    for found in shutil.which("initdb"), shutil.which("pg_ctl"):
        if found:
            candidates.append(os.path.dirname(found))
    for folder in candidates:
        if (
            folder
            and os.access(os.path.join(folder, "initdb"), os.X_OK)
            and os.access(os.path.join(folder, "pg_ctl"), os.X_OK)
        ):
            return Path(folder)
    raise NoServer("no initdb and pg_ctl (install the distribution's postgresql package)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_server_user() -> list[str]:
    """The prefix that runs a command as the server's user: nothing unless we are root."""
    if os.geteuid() != 0:
        return []
    if shutil.which("runuser"):
        return ["runuser", "-u", RUN_AS, "--"]
    if shutil.which("setpriv"):
        import pwd

        entry = pwd.getpwnam(RUN_AS)
        return ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups"]
    raise NoServer("running as root without runuser or setpriv to start the server as another user")


@dataclass
class Server:
    bindir: Path
    folder: Path
    port: int
    socket_dir: Path

    def url(self, database: str = "postgres", *, password: str = PASSWORD, port: int | None = None) -> str:
        return f"postgresql://{ROLE}:{password}@127.0.0.1:{port or self.port}/{database}"

    def psql(self, database: str, sql: str) -> str:
        done = subprocess.run(
            [
                str(self.bindir / "psql"),
                "-X",
                "-q",
                "-At",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                self.url(database),
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode:
            raise RuntimeError(done.stderr)
        return done.stdout

    def new_database(self) -> str:
        name = "team_" + uuid.uuid4().hex[:10]
        self.psql("postgres", f"CREATE DATABASE {name}")
        return name

    def dump(self, database: str) -> str:
        done = subprocess.run(
            [str(self.bindir / "pg_dump"), "--no-owner", "-d", self.url(database)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode:
            raise RuntimeError(done.stderr)
        return done.stdout

    def stop(self) -> None:
        subprocess.run(
            [*_as_server_user(), str(self.bindir / "pg_ctl"), "stop", "-D", str(self.folder / "data"), "-m", "fast"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start() -> Server:
    """A new server in a temporary folder; `Server.stop` ends it and removes the folder."""
    folder_bin = bindir()
    prefix = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="session-kit-pg-"))
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir()
    (folder / "pwfile").write_text(PASSWORD + "\n")
    if prefix:
        import pwd

        entry = pwd.getpwnam(RUN_AS)
        for path in (folder, sockets, folder / "pwfile"):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    done = subprocess.run(
        [*prefix, str(folder_bin / "initdb"), "-D", str(data), "-U", ROLE, "--pwfile", str(folder / "pwfile"),
         "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    if done.returncode:
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServer(f"initdb failed: {done.stderr.strip() or done.stdout.strip()}")
    for _attempt in range(3):
        port = _free_port()
        options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40"
        done = subprocess.run(
            [*prefix, str(folder_bin / "pg_ctl"), "start", "-D", str(data), "-w", "-t", "60",
             "-l", str(folder / "server.log"), "-o", options],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        if done.returncode == 0:
            return Server(folder_bin, folder, port, sockets)
    log = (folder / "server.log").read_text(errors="replace") if (folder / "server.log").exists() else ""
    shutil.rmtree(folder, ignore_errors=True)
    raise NoServer(f"pg_ctl start failed: {done.stderr.strip()} {log[-500:]}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    try:
        server = start()
    except NoServer as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the team tests need a PostgreSQL server: {exc} (CI=true: they must run)")
        pytest.skip(f"no PostgreSQL server: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def team_db(pg_server: Server, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new, empty database's name; `$SESSION_KIT_TEAM_URL` points at it, `$USER` is `alice`."""
    name = pg_server.new_database()
    monkeypatch.setenv("SESSION_KIT_TEAM_URL", pg_server.url(name))
    monkeypatch.setenv("USER", "alice")
    monkeypatch.setenv("LOGNAME", "alice")
    monkeypatch.delenv("PGPASSWORD", raising=False)
    return name

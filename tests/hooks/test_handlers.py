"""The hooks as Claude Code runs them: `python -I -S run.py EVENT`, event JSON on stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import session_kit
from session_kit.state.scratch import SessionScratch

RUN = Path(session_kit.__file__).parent / "hooks" / "run.py"


def hook(
    event: str, payload: object, *, env: dict[str, str] | None = None, raw: bytes | None = None
) -> subprocess.CompletedProcess[str]:
    data = raw if raw is not None else json.dumps(payload).encode()
    return subprocess.run(
        [sys.executable, "-I", "-S", str(RUN), event],
        input=data,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=30,
    )


@pytest.fixture
def state_root(isolated_home: Path) -> Path:
    return Path(os.environ["SESSION_KIT_HOME"])


@pytest.fixture
def env_file(tmp_path: Path) -> Path:
    path = tmp_path / "session-env" / "sid" / "hook-env.sh"
    path.parent.mkdir(parents=True)
    path.write_text("")
    return path


def start(
    sid: str, env_file: Path | None, *, source: str = "startup", cwd: str = "/work/proj", extra_env: dict | None = None
):
    env = {"CLAUDE_ENV_FILE": str(env_file)} if env_file else {}
    env.update(extra_env or {})
    return hook(
        "session-start",
        {
            "session_id": sid,
            "cwd": cwd,
            "source": source,
            "hook_event_name": "SessionStart",
            "transcript_path": f"/x/{sid}.jsonl",
        },
        env=env,
    )


def context_of(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"] if proc.stdout.strip() else ""


@pytest.fixture
def started(state_root: Path, env_file: Path) -> tuple[str, Path]:
    """`sess-1` started in /work/proj: the context given to the model, and its scratch dir."""
    text = context_of(start("sess-1", env_file))
    return text, state_root / "projects" / "-work-proj" / "sessions" / "sess-1"


def test_session_start_makes_a_private_scratch_dir(started):
    _, scratch = started
    assert scratch.is_dir() and oct(scratch.stat().st_mode & 0o777) == "0o700"


def test_session_start_points_the_project_at_the_session(started, state_root: Path):
    assert (state_root / "projects" / "-work-proj" / "current-session-id").read_text().strip() == "sess-1"


def test_session_start_exports_the_session_and_its_scratch_dir(started, env_file: Path):
    _, scratch = started
    exported = env_file.read_text()
    assert 'export SESSION_CONTEXT="session_id=sess-1"' in exported
    assert f"export SESSION_KIT_SCRATCH='{scratch}'" in exported


def test_session_start_tells_the_model_the_session_and_scratch_dir_briefly(started):
    text, scratch = started
    assert "sess-1" in text and str(scratch) in text and len(text) < 500


def test_the_exports_are_what_a_shell_sees_after_sourcing_the_file(started, env_file: Path):
    _, scratch = started
    shown = subprocess.run(
        ["bash", "-c", f"source {env_file}; echo $SESSION_CONTEXT; echo $SESSION_KIT_SCRATCH"],
        capture_output=True,
        text=True,
    ).stdout.split("\n")
    assert shown[:2] == ["session_id=sess-1", str(scratch)]


def test_repeated_starts_do_not_repeat_exports_or_the_introduction(state_root: Path, env_file: Path):
    start("sess-2", env_file)
    again = start("sess-2", env_file, source="resume")
    assert context_of(again) == ""
    assert env_file.read_text().count("SESSION_CONTEXT") == 1
    meta = json.loads((state_root / "projects" / "-work-proj" / "sessions" / "sess-2" / "session.json").read_text())
    assert meta["sources"] == {"startup": 1, "resume": 1}


def test_plugin_route_puts_the_plugin_bin_on_path(env_file: Path):
    start("sess-p", env_file, extra_env={"CLAUDE_PLUGIN_ROOT": "/plugins/session kit"})
    assert "export PATH='/plugins/session kit/bin'\":$PATH\"" in env_file.read_text()


@pytest.fixture
def compacted(state_root: Path, env_file: Path) -> SessionScratch:
    """`sess-3` with a value and a note in its scratch, then a manual compaction's PreCompact hook."""
    start("sess-3", env_file)
    scratch = SessionScratch.for_session("sess-3", root=str(state_root))
    scratch.set("current-task", "migrate the parser; step 3 of 5")
    scratch.note("tests in tests/test_parser.py are flaky")
    assert hook("pre-compact", {"session_id": "sess-3", "trigger": "manual", "cwd": "/work/proj"}).returncode == 0
    return scratch


def test_pre_compact_snapshots_the_work_state(compacted: SessionScratch):
    assert list((Path(compacted.path) / "snapshots").glob("*-manual.json"))


def test_work_state_survives_compaction(compacted: SessionScratch, env_file: Path):
    text = context_of(start("sess-3", env_file, source="compact"))
    assert "migrate the parser; step 3 of 5" in text and "flaky" in text


def test_work_state_is_restored_once(compacted: SessionScratch, env_file: Path):
    start("sess-3", env_file, source="compact")
    assert "migrate" not in context_of(start("sess-3", env_file, source="resume"))


def test_after_a_compaction_a_resume_start_restores_too(state_root: Path, env_file: Path):
    # `claude -p /compact --resume` then `claude -p --resume`: the next start may say "resume"
    start("sess-4", env_file)
    SessionScratch.for_session("sess-4", root=str(state_root)).set("k", "v-after-resume")
    hook("pre-compact", {"session_id": "sess-4", "trigger": "manual"})
    assert "v-after-resume" in context_of(start("sess-4", env_file, source="resume"))


def test_oversized_state_is_summarised_with_the_file_path(state_root: Path, env_file: Path):
    start("sess-5", env_file)
    scratch = SessionScratch.for_session("sess-5", root=str(state_root))
    for i in range(40):
        scratch.set(f"key-{i:02d}", "x" * 2000)
    hook("pre-compact", {"session_id": "sess-5", "trigger": "auto"})
    text = context_of(start("sess-5", env_file, source="compact"))
    assert len(text) <= 9000
    assert "key-39" in text and str(Path(scratch.path) / "state.json") in text


def test_without_env_file_session_start_says_to_name_the_session(state_root: Path):
    text = context_of(start("sess-6", None))
    assert "--session sess-6" in text


def test_without_env_file_the_prompt_hook_reminds(state_root: Path):
    start("sess-6", None)
    reminder = context_of(hook("user-prompt-submit", {"session_id": "sess-6", "prompt": "hi", "cwd": "/work/proj"}))
    assert "sess-6" in reminder


def test_prompt_hook_is_silent_when_the_env_file_works(env_file: Path):
    start("sess-7", env_file)
    proc = hook("user-prompt-submit", {"session_id": "sess-7", "prompt": "hi"})
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""


def test_prompt_hook_creates_the_scratch_dir_when_no_start_was_seen(state_root: Path):
    text = context_of(hook("user-prompt-submit", {"session_id": "late-1", "prompt": "hi", "cwd": "/late/proj"}))
    assert "late-1" in text
    assert (state_root / "projects" / "-late-proj" / "sessions" / "late-1").is_dir()


@pytest.mark.parametrize("raw", [b"", b"not json", b"[1,2]", b'{"session_id": 5}', b"\xff\xfe"])
def test_bad_stdin_logs_says_one_line_and_exits_0(state_root: Path, raw: bytes):
    proc = hook("session-start", None, raw=raw)
    assert proc.returncode == 0 and proc.stdout == b""
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and err.startswith("session-kit hook session-start:")
    assert "hook session-start" in (state_root / "logs" / "hooks.log").read_text()


@pytest.mark.parametrize("sid", ["../../escape", "a/b", "x\x00y", ".hidden", "a" * 500, "a b", "$(touch pwned)"])
def test_unsafe_session_ids_write_nothing_outside_the_state_root(
    state_root: Path, tmp_path: Path, sid: str, env_file: Path
):
    before = set(tmp_path.rglob("*"))
    proc = start(sid, env_file)
    assert proc.returncode == 0 and "session-kit hook" in proc.stderr.decode()
    assert not (state_root / "projects").exists()
    assert env_file.read_text() == ""
    assert set(tmp_path.rglob("*")) - before <= set(state_root.rglob("*"))


def test_an_unknown_event_still_exits_0():
    assert hook("no-such-event", {"session_id": "x"}).returncode == 0


def test_an_unwritable_state_root_still_exits_0_and_says_so(tmp_path: Path):
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    proc = start("sess-8", None, extra_env={"SESSION_KIT_HOME": str(blocked / "state")})
    assert proc.returncode == 0 and proc.stderr.decode().startswith("session-kit hook session-start:")


def test_fifty_concurrent_hook_runs_lose_and_corrupt_nothing(state_root: Path, tmp_path: Path):
    env_files = {}
    for i in range(10):
        path = tmp_path / f"env-{i}.sh"
        path.write_text("")
        env_files[f"conc-{i}"] = path

    def one(n: int) -> subprocess.CompletedProcess:
        sid = f"conc-{n % 10}"
        kind = ("session-start", "user-prompt-submit", "pre-compact")[n % 3]
        payload = {"session_id": sid, "cwd": "/work/proj", "source": "startup", "trigger": "auto", "prompt": "p"}
        return hook(kind, payload, env={"CLAUDE_ENV_FILE": str(env_files[sid])})

    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(one, range(50)))
    assert all(r.returncode == 0 and r.stderr == b"" for r in results), [r.stderr for r in results if r.stderr]
    sessions = state_root / "projects" / "-work-proj" / "sessions"
    assert sorted(p.name for p in sessions.iterdir()) == sorted(env_files)
    for sid in env_files:
        meta = json.loads((sessions / sid / "session.json").read_text())  # whole, valid JSON
        assert meta["session_id"] == sid
        starts = sum(1 for n in range(50) if n % 10 == int(sid[-1]) and n % 3 == 0)
        assert meta["sources"].get("startup", 0) + meta["sources"].get("prompt", 0) >= starts
    pointer = (state_root / "projects" / "-work-proj" / "current-session-id").read_text().strip()
    assert pointer in env_files
    assert not list(state_root.rglob("*.tmp"))


def test_a_hook_imports_only_what_it_needs(state_root: Path, env_file: Path):
    """Read off `-X importtime` of the real hook command: every module it loads is listed."""
    payload = json.dumps({"session_id": "imp-1", "cwd": "/w", "source": "startup"}).encode()
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-X", "importtime", str(RUN), "session-start"],
        input=payload,
        capture_output=True,
        env={**os.environ, "CLAUDE_ENV_FILE": str(env_file)},
    )
    assert proc.returncode == 0
    loaded = {
        line.rsplit("|", 1)[1].strip() for line in proc.stderr.decode().splitlines() if line.startswith("import time:")
    }
    assert {
        "session_kit.hooks.handlers",
        "session_kit.state.scratch",
        "session_kit.state.root",
        "session_kit.base.fastjson",
    } <= loaded
    forbidden = {
        "click",
        "session_kit.cli",
        "session_kit.sessions.store",
        "platformdirs",
        "filelock",
        "typing",
        "json",
        "re",
        "pathlib",
        "shutil",
        "dataclasses",
        "contextlib",
        "subprocess",
        "site",
    }
    assert not forbidden & loaded, sorted(forbidden & loaded)


def test_after_a_compaction_a_damaged_work_state_is_named_and_kept(state_root: Path, env_file: Path):
    start("sid-damaged", env_file)
    scratch = SessionScratch.for_session("sid-damaged", project_path="/work/proj", root=str(state_root))
    Path(scratch.file("state.json")).write_bytes(b'{"values": {"plan": "cut')
    proc = hook("pre-compact", {"session_id": "sid-damaged", "cwd": "/work/proj", "trigger": "manual"})
    assert proc.returncode == 0 and proc.stderr == b""
    told = context_of(start("sid-damaged", env_file, source="compact"))
    assert "cannot be read" in told and scratch.file("state.json") in told
    assert Path(scratch.file("state.json")).read_bytes() == b'{"values": {"plan": "cut'


def test_a_restored_value_with_bytes_that_were_not_utf8_leaves_valid_json(state_root: Path, env_file: Path):
    start("sid-bytes", env_file)
    scratch = SessionScratch.for_session("sid-bytes", project_path="/work/proj", root=str(state_root))
    scratch.set("file", os.fsdecode(b"caf\xe9.txt"))
    hook("pre-compact", {"session_id": "sid-bytes", "cwd": "/work/proj", "trigger": "manual"})
    proc = start("sid-bytes", env_file, source="compact")
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    assert "caf\udce9.txt" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]


# --- the env file: appended to, never read whole, never glued onto, bytes kept ---------------------


def start_raw(sid: str, env_file: str, **extra: str) -> subprocess.CompletedProcess[bytes]:
    """SessionStart in a subprocess with 512 MB of address space and a 20 s limit: a hook
    that read an endless file or waited on a FIFO fails here instead of hurting the machine."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (512 * 1024 * 1024, 512 * 1024 * 1024))

    event = {"session_id": sid, "cwd": "/work/proj", "source": "startup", "hook_event_name": "SessionStart"}
    return subprocess.run(
        [sys.executable, "-I", "-S", str(RUN), "session-start"],
        input=json.dumps(event).encode(),
        capture_output=True,
        env={**os.environ, "CLAUDE_ENV_FILE": env_file, **extra},
        timeout=20,
        preexec_fn=limit,
    )


def test_an_env_file_that_is_a_fifo_is_refused_at_once(tmp_path: Path, state_root: Path):
    fifo = tmp_path / "env-fifo"
    os.mkfifo(fifo)
    done = start_raw("sid-fifo", str(fifo))  # a hook waiting on the FIFO would time out here
    assert done.returncode == 0 and b"not a regular file" in done.stderr and done.stderr.count(b"\n") == 1
    assert b"this session's id is sid-fifo" in done.stdout  # the session still gets its introduction


def test_an_env_file_that_is_dev_zero_is_refused_without_reading_it(tmp_path: Path, state_root: Path):
    link = tmp_path / "env-zero"
    link.symlink_to("/dev/zero")
    done = start_raw("sid-zero", str(link))
    assert done.returncode == 0 and b"not a regular file" in done.stderr


def test_exports_start_on_a_line_of_their_own_after_a_file_without_a_final_newline(env_file: Path, state_root: Path):
    env_file.write_bytes(b"export OTHER=1")
    start("sid-nl", env_file)
    lines = env_file.read_text().splitlines()
    assert lines[0] == "export OTHER=1" and lines[1].startswith("export SESSION_CONTEXT=")


def test_a_session_kit_home_that_is_not_utf8_is_exported_byte_for_byte(tmp_path: Path, env_file: Path):
    home = os.fsdecode(os.fsencode(str(tmp_path)) + b"/st\xe9te")
    done = start_raw("sid-bytes", str(env_file), SESSION_KIT_HOME=home)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    shown = subprocess.run(
        ["bash", "-c", f'source "{env_file}"; printf %s "$SESSION_KIT_HOME"'], capture_output=True, timeout=30
    )
    assert shown.stdout == os.fsencode(home)


def test_an_env_file_is_read_only_at_its_end(env_file: Path, state_root: Path):
    env_file.write_bytes(b"# filler\n" * 200_000)  # 1.8 MB of someone else's lines
    start("sid-big", env_file)
    start("sid-big", env_file, source="resume")
    assert env_file.read_text().count("SESSION_CONTEXT") == 1


COUNT_FSYNCS = (
    "import os, runpy, sys\n"
    "calls = []\n"
    "real_fsync, real_exit = os.fsync, os._exit\n"
    "def fsync(fd):\n"
    "    calls.append(fd)\n"
    "    return real_fsync(fd)\n"
    "def leave(code):\n"
    "    sys.stderr.write(f'fsyncs={len(calls)}\\n')\n"
    "    sys.stderr.flush()\n"
    "    real_exit(code)\n"
    "os.fsync, os._exit = fsync, leave\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


@pytest.mark.parametrize("event", ["session-start", "pre-compact", "user-prompt-submit"])
def test_a_hook_syncs_no_file_the_kit_can_do_without_after_a_power_cut(state_root: Path, env_file: Path, event: str):
    """The pointer, the session's record, the pre-compaction copy of the state and the marks
    are rewritten at every start or are copies: an fsync each cost 1-6 ms of a hook's ~20."""
    start("sid-sync", env_file)
    payload = {"session_id": "sid-sync", "cwd": "/work/proj", "source": "resume", "trigger": "manual"}
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", COUNT_FSYNCS, str(RUN), event],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={**os.environ, "CLAUDE_ENV_FILE": str(env_file), "SESSION_KIT_MEMORY": "off", "SESSION_KIT_ARCHIVE": "off"},
        timeout=30,
    )
    assert proc.returncode == 0
    assert proc.stderr.decode().strip().splitlines()[-1] == "fsyncs=0"


TEARDOWN_PROBE = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: sys.stderr.write('interpreter teardown ran\\n'))\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


def test_a_hook_leaves_without_the_interpreters_teardown_and_with_its_output_whole(state_root: Path, env_file: Path):
    """The teardown of a process that forked a child copies every page they share (~5 ms)."""
    payload = {"session_id": "sid-exit", "cwd": "/work/proj", "source": "startup"}
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", TEARDOWN_PROBE, str(RUN), "session-start"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={**os.environ, "CLAUDE_ENV_FILE": str(env_file)},
        timeout=30,
    )
    assert proc.returncode == 0
    assert b"interpreter teardown ran" not in proc.stderr
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "sid-exit" in context

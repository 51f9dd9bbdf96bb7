"""`secrets`: secrets kept in the client's files and in the archive, named but never shown;
`--scrub` takes them out of the archive (and, with `--client`, out of the client's files)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path

import pytest

from session_kit.archive import layout, store
from session_kit.state.root import state_root
from tests.support.cli import invoke, invoke_json, run
from tests.support.sessions import ANTHROPIC_KEY, GITHUB_TOKEN, Leaky, build_leaky, make_session

SID = "5ec2e700-aaaa-bbbb-cccc-ddddeeeeffff"
PROJECT = "-work-leaky"
SPILLED_KEY = "ghp_Sp1lledT00lResu1tK3yAbCdEfGh1234567"
TYPED_KEY = "sk-ant-api03-Typ3dInt0ThePr0mptXyZ-qQ9wE8rT7yU6iO5pA4sD3fG"
SNAPSHOT_TOKEN = "glpat-Sn4psh0tT0k3nQw3rTy99"
SECRETS_OUTSIDE = (SPILLED_KEY, TYPED_KEY, SNAPSHOT_TOKEN)


def _pieces(secrets: tuple[str, ...]) -> set[str]:
    """Every 12-character piece of the secrets: none may be printed."""
    return {s[i : i + 12] for s in secrets for i in range(len(s) - 11)}


def _assert_never_shown(text: str, secrets: tuple[str, ...]) -> None:
    leaked = [piece for piece in _pieces(secrets) if piece in text]
    assert not leaked, f"printed a piece of a secret: {leaked[:3]}"


@pytest.fixture
def leaky(claude_root: Path) -> Leaky:
    """The leaky session, with a spilled tool output, a prompt in history.jsonl and a shell
    snapshot that hold secrets too."""
    built = build_leaky(claude_root)
    spilled = claude_root / "projects" / PROJECT / SID / "tool-results" / "toolu_01.txt"
    spilled.parent.mkdir(parents=True)
    spilled.write_text(f"line one\nexport GITHUB_TOKEN={SPILLED_KEY}\nline three\n")
    history = [
        {
            "display": "list the files",
            "pastedContents": {},
            "timestamp": 1_763_000_000_000,
            "project": "/work/leaky",
            "sessionId": SID,
        },
        {
            "display": f"use {TYPED_KEY} for the api",
            "pastedContents": {},
            "timestamp": 1_763_000_060_000,
            "project": "/work/leaky",
            "sessionId": SID,
        },
    ]
    (claude_root / "history.jsonl").write_text("".join(json.dumps(h) + "\n" for h in history))
    snapshots = claude_root / "shell-snapshots"
    snapshots.mkdir()
    (snapshots / "snapshot-bash-1763000000000-abc123.sh").write_text(
        f"# Snapshot file\nexport PATH=/usr/bin\nexport GITLAB_TOKEN={SNAPSHOT_TOKEN}\n"
    )
    return built


def _all_secrets(leaky: Leaky) -> tuple[str, ...]:
    return (*leaky.secrets, *SECRETS_OUTSIDE)


def _delete_as_the_client_does(root: Path) -> None:
    (root / "projects" / PROJECT / f"{SID}.jsonl").unlink()
    shutil.rmtree(root / "projects" / PROJECT / SID)


def test_secrets_in_client_files_and_archive_are_named_by_rule_session_file_and_line_never_shown(leaky: Leaky):
    assert invoke("archive").exit_code == 0
    proc = run("secrets", "--all", "--json")
    assert proc.returncode == 8, proc.stderr
    _assert_never_shown(proc.stdout + proc.stderr, _all_secrets(leaky))
    report = json.loads(proc.stdout)
    assert report["kind"] == "secrets" and report["found"] == sum(h["count"] for h in report["hits"]) > 0
    assert any(h["count"] == 2 for h in report["hits"]), "a secret a line holds twice is one hit, counted twice"
    where = {(h["where"], os.path.basename(h["path"])) for h in report["hits"]}
    assert ("client", f"{SID}.jsonl") in where and ("archive", f"{SID}.jsonl") in where
    assert ("client", "toolu_01.txt") in where, "a spilled tool output is searched"
    assert ("client", "history.jsonl") in where and ("client", "snapshot-bash-1763000000000-abc123.sh") in where
    assert ("client", f"agent-{leaky.agent}.jsonl") in where and ("archive", f"agent-{leaky.agent}.meta.json") in where
    spilled = next(h for h in report["hits"] if h["path"].endswith("toolu_01.txt"))
    assert (spilled["kind"], spilled["line"], spilled["session"]) == ("github-token", 2, SID)
    typed = next(h for h in report["hits"] if h["path"].endswith("history.jsonl"))
    assert (typed["kind"], typed["line"], typed["session"]) == ("anthropic-api-key", 2, SID)
    kinds = {h["kind"] for h in report["hits"]}
    assert {"anthropic-api-key", "github-token", "gitlab-token", "aws-access-key", "stripe-key"} <= kinds

    text = run("secrets", "--all")
    assert text.returncode == 8
    _assert_never_shown(text.stdout + text.stderr, _all_secrets(leaky))
    assert f"{SID}" in text.stdout and "history.jsonl:2" in text.stdout and "toolu_01.txt:2" in text.stdout


def test_secrets_of_one_session_and_none_found_exits_0(leaky: Leaky, claude_root: Path):
    make_session(claude_root, "0c1ea400-0000-0000-0000-000000000001", cwd="/work/clean", prompt="nothing secret here")
    one = invoke_json_any("secrets", "0c1ea400")
    assert one["found"] == 0 and one["hits"] == []
    assert run("secrets", "0c1ea400").returncode == 0
    mine = invoke_json_any("secrets", SID[:8])
    assert mine["found"] > 0 and {h["session"] for h in mine["hits"]} == {SID}
    assert all(not h["path"].endswith(".sh") for h in mine["hits"]), "a shell snapshot is of no one session"


def invoke_json_any(*args: str) -> dict:
    """`--json` whatever the exit code (8 when secrets are found)."""
    result = invoke(*args, "--json")
    assert result.exit_code in (0, 8), result.output
    return json.loads(result.stdout)


def _archive() -> str:
    return layout.base_dir(state_root(), os.environ["CLAUDE_CONFIG_DIR"])


def _original(rel: str) -> bytes:
    return store.read_original(_archive(), rel)


def test_scrub_removes_secrets_from_the_archive_keeping_every_other_byte_and_search_finds_the_rest(
    leaky: Leaky, claude_root: Path
):
    assert invoke("archive").exit_code == 0
    rel = f"projects/{PROJECT}/{SID}.jsonl"
    before = _original(rel)
    _delete_as_the_client_does(claude_root)  # the archive holds the only copy
    found = invoke_json("search", "credentials", "--all")
    assert found["total"] > 0 and found["hits"][0]["session_id"] == SID

    proc = run("secrets", "--all", "--scrub", "--json")
    _assert_never_shown(proc.stdout + proc.stderr, _all_secrets(leaky))
    report = json.loads(proc.stdout)
    assert report["scrubbed"] and all(d["where"] == "archive" for d in report["scrubbed"])
    # what is left is in the client's files (history.jsonl, the snapshot), which it never touched
    assert proc.returncode == 8 and report["left"] > 0
    assert TYPED_KEY in (claude_root / "history.jsonl").read_text()

    after = _original(rel)
    assert len(after) == len(before) and after != before
    for secret in leaky.secrets:
        assert secret.encode() not in after
    marker_bytes = set(b"[]:*-abcdefghijklmnopqrstuvwxyzREDACT")
    assert all(b in marker_bytes for a, b in zip(before, after) if a != b), "only the secrets' bytes change"
    assert len(after.splitlines()) == len(before.splitlines())
    for old, new in zip(before.splitlines(), after.splitlines()):
        assert json.loads(old).keys() == json.loads(new).keys()
    gz = layout.member_path(_archive(), rel)
    assert gzip.decompress(Path(gz).read_bytes()) == after
    again = invoke_json_any("secrets", "--all")
    assert not [h for h in again["hits"] if h["where"] == "archive"]

    found_after = invoke_json("search", "credentials", "--all")
    assert found_after["total"] == found["total"] and found_after["hits"][0]["line"] == found["hits"][0]["line"]
    assert invoke("show", SID).exit_code == 0
    restored = invoke("restore", SID)
    assert restored.exit_code == 0, restored.output
    back = (claude_root / "projects" / PROJECT / f"{SID}.jsonl").read_bytes()
    assert back == after


def test_scrub_never_touches_the_clients_files_without_client(leaky: Leaky, claude_root: Path):
    invoke("archive")
    files = sorted(p for p in claude_root.rglob("*") if p.is_file())
    before = {p: p.read_bytes() for p in files}
    assert invoke("secrets", "--all", "--scrub").exit_code == 8
    assert {p: p.read_bytes() for p in files} == before


def test_scrub_client_rewrites_clients_files_but_not_a_running_sessions(leaky: Leaky, claude_root: Path):
    other = "0c1ea400-0000-0000-0000-000000000002"
    make_session(claude_root, other, cwd="/work/leaky", prompt=f"my token is {GITHUB_TOKEN}")
    old = 1_700_000_000
    for path in claude_root.rglob("*"):
        os.utime(path, (old, old))
    registry = claude_root / "sessions"
    registry.mkdir()
    (registry / f"{os.getpid()}.json").write_text(json.dumps({"pid": os.getpid(), "sessionId": other}))
    transcript = claude_root / "projects" / PROJECT / f"{SID}.jsonl"
    running = claude_root / "projects" / PROJECT / f"{other}.jsonl"
    running_before = running.read_bytes()
    history_before = (claude_root / "history.jsonl").read_bytes()
    size = transcript.stat().st_size

    report = invoke_json_any("secrets", "--all", "--scrub", "--client")
    assert other in report["running"]
    assert running.read_bytes() == running_before, "a running session's file is left as it is"
    assert (claude_root / "history.jsonl").read_bytes() == history_before, "every session writes history.jsonl"
    text = transcript.read_text()
    assert ANTHROPIC_KEY not in text and "[REDACTED:anthropic-api-key]" in text
    assert transcript.stat().st_size == size and transcript.stat().st_mtime == old
    assert SPILLED_KEY not in (claude_root / "projects" / PROJECT / SID / "tool-results" / "toolu_01.txt").read_text()

    (registry / f"{os.getpid()}.json").unlink()
    invoke("secrets", "--all", "--scrub", "--client")
    assert GITHUB_TOKEN not in running.read_text() and TYPED_KEY not in (claude_root / "history.jsonl").read_text()
    final = run("secrets", "--all")
    assert final.returncode == 0, final.stdout


def test_client_goes_with_scrub():
    result = invoke("secrets", "--client")
    assert result.exit_code == 2 and "--client goes with --scrub" in result.stderr


def test_a_session_only_history_remembers_is_searched_by_its_full_id(claude_root: Path):
    lost = "77777777-0000-0000-0000-000000000007"
    line = {"display": f"try {TYPED_KEY}", "pastedContents": {}, "timestamp": 1, "project": "/w", "sessionId": lost}
    (claude_root / "history.jsonl").write_text(json.dumps(line) + "\n")
    found = invoke_json_any("secrets", lost)
    assert [(h["session"], h["line"], h["kind"]) for h in found["hits"]] == [(lost, 1, "anthropic-api-key")]
    assert invoke("secrets", "77777777").exit_code == 3, "a prefix names a session the client or the archive has"
    assert invoke("secrets", lost, "--all").exit_code == 2


def _export_calls(tmp_path: Path, name: str) -> int:
    doc = invoke_json("export", "--output-dir", str(tmp_path / name))
    return doc["rows"]["calls"]


def test_a_scrubbed_session_the_client_still_has_is_one_session_in_search_and_export(
    leaky: Leaky, claude_root: Path, tmp_path: Path
):
    assert invoke("archive").exit_code == 0
    found = invoke_json("search", "credentials", "--all")
    calls = _export_calls(tmp_path, "before")
    assert found["total"] > 0 and calls > 0

    assert invoke("secrets", "--all", "--scrub").exit_code == 8
    again = invoke_json("search", "credentials", "--all")
    assert again["total"] == found["total"], "each hit of the session once, not once more from the archive's view"
    assert _export_calls(tmp_path, "after") == calls


def test_an_index_holding_the_view_of_a_session_the_client_has_drops_it_at_the_next_update(
    leaky: Leaky, claude_root: Path, tmp_path: Path
):
    from session_kit.archive import view
    from session_kit.index import db
    from session_kit.index.files import IndexFile
    from session_kit.index.update import update

    assert invoke("archive").exit_code == 0
    found = invoke_json("search", "credentials", "--all")
    calls = _export_calls(tmp_path, "before")
    # what `secrets --scrub` did before: the view of the live session indexed beside it
    assert view.materialize(_archive(), SID) is not None
    doubled = os.path.join(layout.view_dir(_archive()), "projects", PROJECT, f"{SID}.jsonl")
    conn = db.connect(state_root(), claude_root=claude_root)
    try:
        update(conn, claude_root, files=[IndexFile(doubled, SID, None, PROJECT)])
        assert conn.execute("SELECT count(*) FROM files WHERE path=?", (doubled,)).fetchone()[0] == 1
        update(conn, claude_root, state_root=state_root())
        (sessions,) = conn.execute("SELECT count(*) FROM sessions WHERE id=?", (SID,)).fetchone()
        paths = [p for (p,) in conn.execute("SELECT path FROM files WHERE session=?", (SID,))]
    finally:
        conn.close()
    assert sessions == 1 and doubled not in paths
    assert invoke_json("search", "credentials", "--all")["total"] == found["total"]
    assert _export_calls(tmp_path, "after") == calls

"""The index reads a session's last line when its writer never ended it with a newline, as
`show` and `sessions` read it (a whole JSON object; a half-written one waits: `base.follow`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import invoke_json
from tests.support.transcripts import Transcript


def test_a_title_on_a_last_line_never_ended_is_exported_as_sessions_lists_it(claude_root: Path, tmp_path: Path):
    t = Transcript("s-no-newline", version="1.0.24")
    t.user("Fix the parser")
    t.say("Done.")
    t.raw({"type": "summary", "summary": "Parser fixed", "leafUuid": t.lines[-1]["uuid"]})
    path = t.write_session(claude_root)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))  # its writer never ended the last line
    out = tmp_path / "export"
    invoke_json("export", "--output-dir", str(out))
    [session] = [json.loads(line) for line in (out / "sessions.jsonl").read_text().splitlines()]
    assert session["title"] == "Parser fixed" == invoke_json("show", "s-no-newline")["title"]

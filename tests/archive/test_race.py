"""Every writer of the archive at once, as a hostile campaign ran them: the client appending,
`archive` looping, the hooks' copy looping, `secrets --scrub` looping, and a reader checking
every generation meanwhile. No line is lost, no member is shorter than its manifest, and what
the archive holds is the client's file with its tokens scrubbed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from session_kit.archive import catalogue, layout, store
from session_kit.archive.verify import verify
from tests.archive.race_worker import TOKEN

SID = "race0000-1111-4222-8333-444455556666"
SECONDS = 8


def test_scrub_archive_and_hooks_racing_lose_nothing_and_a_reader_sees_every_generation_whole(
    claude_root: Path, tmp_path: Path
):
    project = claude_root / "projects" / "-work-race"
    project.mkdir(parents=True)
    transcript = project / f"{SID}.jsonl"
    transcript.write_bytes(b"")
    state = str(tmp_path / "state")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2]), os.environ.get("PYTHONPATH", "")]),
    }
    roles = ("client", "archive", "hook", "scrub", "scrub", "reader")
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.archive.race_worker",
                role,
                str(claude_root),
                state,
                str(transcript),
                str(SECONDS),
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for role in roles
    ]
    outputs = [proc.communicate(timeout=120) for proc in procs]
    for role, proc, (_out, err) in zip(roles, procs, outputs, strict=True):
        assert proc.returncode == 0, (role, err.decode()[-2000:])
    seen = outputs[-1][0].decode()
    assert seen == "", f"the reader saw a generation not whole: {seen[:500]}"

    base = layout.base_dir(state, str(claude_root))
    catalogue.archive_everything(base, str(claude_root))  # what is left, once every writer stopped
    checked = verify(base, str(claude_root))
    assert checked.problems == (), checked.problems[:5]
    rel = f"projects/-work-race/{SID}.jsonl"
    entry = layout.archived(base, rel)
    assert len(entry.generations) == 1, "the client only appended: a copy that waited is no rewrite"
    archived = store.read_original(base, rel)
    client = transcript.read_bytes()
    assert len(archived) == len(client), "the archive holds every byte the client wrote"
    client_lines, archived_lines = client.splitlines(), archived.splitlines()
    assert [json.loads(a)["n"] for a in archived_lines] == [json.loads(c)["n"] for c in client_lines]
    rounds = [e for e in (o[1].decode() for o in outputs) if "scrub:" in e]
    assert rounds and all(int(r.split()[1]) > 1 for r in rounds), rounds
    assert TOKEN not in archived.decode()[: len(archived) // 2], "the scrubs ran while the client wrote"

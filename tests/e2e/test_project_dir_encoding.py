"""The kit encodes a project path exactly as the real client names its folder under projects/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .client import Claude
from .fake_api import Script

CASES = {
    "spaces-underscores-dots": "My Project_v2.0",
    "non-ascii": "grüße-ü",
    "emoji": "emoji 🚀 dir",
    "mixed": "a.b_c d-e~f+g@h",
    # Over 200 characters once encoded: the client cuts and appends a hash.
    "longer-than-200": os.path.join("a" * 120, "b" * 120),
}


@pytest.mark.parametrize("relative", CASES.values(), ids=CASES.keys())
def test_project_dir_name_matches_the_client(claude: Claude, tmp_path: Path, relative: str) -> None:
    from session_kit.claude.paths import encode_project_dir

    cwd = tmp_path / "enc" / relative
    cwd.mkdir(parents=True)
    claude.fake.script = Script(main=["ok"])
    run = claude.run("Say ok", cwd=cwd)

    created = [p.name for p in claude.home.projects.iterdir()]
    resolved = os.path.realpath(cwd)
    assert created == [encode_project_dir(resolved)], f"cwd {resolved!r} ({len(resolved)} chars)"
    assert run.transcript_path is not None and run.transcript_path.parent.name == created[0]

"""Copying the scenario's real transcripts into ``tests/fixtures/real/`` with stable paths.

Owns the export only: which files are copied, and the rewrite of the run's temporary root
(``/tmp/pytest-of-…/scenario0``) to ``PLACEHOLDER_ROOT``, both as a path and in its encoded
form (the project folder's name), so the copies are valid, stable-looking client output.
Nothing is dropped. The unit tests read these files as samples of the real client.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from .scenario import ScenarioRun

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real"
PLACEHOLDER_ROOT = "/tmp/real-fixture"
UPDATE_ENV = "SESSION_KIT_UPDATE_REAL_FIXTURES"


def _encoded(path: str) -> str:
    # The client's rule for ASCII paths; the roots here are plain ASCII and short.
    return re.sub(r"[^A-Za-z0-9]", "-", path)


def _rewrite(text: str, root: str) -> str:
    text = text.replace(root, PLACEHOLDER_ROOT)
    return text.replace(_encoded(root), _encoded(PLACEHOLDER_ROOT))


def export(run: ScenarioRun, dest: Path = FIXTURES) -> list[Path]:
    """Replace ``dest/projects`` with the scenario's session and subagent files; return them."""
    root = str(run.root.resolve())
    assert re.fullmatch(r"[A-Za-z0-9/_.-]+", root), f"unexpected characters in {root!r}"
    source_project = run.transcript.parent
    sources = [run.transcript, *sorted(run.subagents_dir.iterdir())]
    target_project = dest / "projects" / _rewrite(source_project.name, root)
    shutil.rmtree(dest / "projects", ignore_errors=True)
    written = []
    for source in sources:
        target = target_project / source.relative_to(source_project)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = _rewrite(source.read_text(encoding="utf-8"), root)
        for line in text.splitlines():  # still valid JSON after the rewrite
            if line.strip():
                json.loads(line)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written

"""Hand-made Claude roots the CLI tests read (see tests/support/sessions.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.sessions import Built, Planned, build, build_planned


@pytest.fixture
def built(claude_root: Path) -> Built:
    return build(claude_root)


@pytest.fixture
def planned(claude_root: Path) -> Planned:
    return build_planned(claude_root)

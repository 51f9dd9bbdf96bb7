"""The optional extras' hint: the command that adds one to the kit that is running."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from session_kit.extras import EXTRAS, INSTALLED_FROM, install_hint

REPO = Path(__file__).parents[1]


def test_the_extras_are_pyprojects_optional_dependencies():
    text = (REPO / "pyproject.toml").read_text()  # (tomllib is 3.11+; the kit runs on 3.10)
    optional = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    assert re.findall(r'^(\w+) = \["([^"]+)"\]$', optional, flags=re.M) == sorted(EXTRAS.items())


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_a_kit_install_sh_installed_is_told_install_sh_with_the_extra(extra: str, tmp_path: Path, monkeypatch):
    checkout = tmp_path / "my kits" / "claude-session-kit"
    (tmp_path / INSTALLED_FROM).write_text(f"{checkout}\n")
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    assert install_hint(extra) == f"{shlex.quote(str(checkout / 'install.sh'))} --with {extra}"


def test_any_other_kit_is_told_its_own_interpreters_pip(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    assert install_hint("team") == f"{shlex.quote(sys.executable)} -m pip install 'psycopg[binary]>=3.1'"

"""Which client the suite runs: the pinned one, or the one `CLAUDE_CODE_VERSION` asks for
(no client is installed or run here)."""

from __future__ import annotations

import pytest

from .client import CACHE_ENV, REPO, VERSION_ENV, cache_root, pinned_version, wanted_version


def test_by_default_the_pinned_client_runs():
    assert wanted_version({}) == pinned_version() and wanted_version({VERSION_ENV: " "}) == pinned_version()


def test_a_version_in_the_environment_is_the_client_that_runs():
    assert wanted_version({VERSION_ENV: "2.1.330"}) == "2.1.330"


def test_latest_asks_for_the_newest_release():
    asked = []
    version = wanted_version({VERSION_ENV: "latest"}, latest=lambda: asked.append(1) or "9.9.9")
    assert version == "9.9.9" and asked == [1]


def test_a_value_that_is_no_version_is_refused():
    with pytest.raises(ValueError, match=VERSION_ENV):
        wanted_version({VERSION_ENV: "1.0; rm -rf /"})


def test_the_client_is_kept_in_the_user_cache_outside_the_checkout(tmp_path):
    assert cache_root({"HOME": str(tmp_path)}) == tmp_path / ".cache" / "claude-session-kit" / "test-cache"
    assert cache_root({"XDG_CACHE_HOME": str(tmp_path / "c")}) == tmp_path / "c" / "claude-session-kit" / "test-cache"
    assert cache_root({CACHE_ENV: str(tmp_path / "x"), "HOME": "/nowhere"}) == tmp_path / "x"
    assert REPO not in cache_root().parents

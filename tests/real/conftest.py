"""Fixtures of the real-session tests: the corpus (skip, or fail under CI, when it is missing)
and one kit run shared by every test of the run."""

from __future__ import annotations

import pytest

from tests.real.corpus import KitRun, need_corpus


@pytest.fixture(scope="session")
def kit(tmp_path_factory: pytest.TempPathFactory) -> KitRun:
    need_corpus()
    return KitRun(tmp_path_factory.mktemp("real-home"))


@pytest.fixture(autouse=True)
def corpus_present() -> None:
    need_corpus()

"""The benchmarks' data generator (`benchmarks/generator/`), for the tests that check what it
writes."""

from __future__ import annotations

import importlib
from types import ModuleType


def load_generator() -> ModuleType:
    """The `benchmarks.generator` package (the checkout's root is on the tests' path)."""
    return importlib.import_module("benchmarks.generator")

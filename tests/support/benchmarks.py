"""The benchmarks' data generator (`benchmarks/generate.py`, a script, not a package), loaded
for the tests that check what it writes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

GENERATOR = Path(__file__).resolve().parents[2] / "benchmarks" / "generate.py"


def load_generator() -> ModuleType:
    """`benchmarks/generate.py` as a module (loaded once per process)."""
    name = "benchmarks_generate"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module

"""The benchmarks, a module per area of the kit; each registers its functions with
`@benchmark(name)` (`harness.context`) when imported.

`load()` imports every module of this package: those named in `AREAS` first, in that order
(the report's order: cheap and broad first, the history last, as it copies the main root),
then any other, by name. A new area is a new module here; list it in `AREAS` to place it.
"""

from __future__ import annotations

import importlib
import pkgutil

AREAS = (
    "listing",
    "search",
    "reads",
    "hooks",
    "guard",
    "startup",
    "mcp",
    "usage",
    "compaction",
    "preprocess",
    "view",
    "baselines",
    "secrets",
    "redaction",
    "history",
    "indexed",
    "archive",
    "team",
)


def load() -> None:
    """Import every area module, registering its benchmarks in the report's order."""
    found = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    for name in [*AREAS, *(n for n in found if n not in AREAS)]:
        importlib.import_module(f"{__name__}.{name}")

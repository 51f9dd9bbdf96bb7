"""The renderer interface: format-neutral units (`conversation.items`) as the text of one output format.

Owns: the `Renderer` interface every format implements, and finding a renderer by format name
(`renderer_for`). One module per format beside this one (`xml` today); adding a format is
one new module and one line in `FORMATS`. Does not build units (that is `elements`) or write
anything (that is `sinks`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

from session_kit.conversation.items import Unit

DEFAULT_FORMAT = "xml"
FORMATS = {"xml": "session_kit.preprocess.render.xml"}  # format name -> module with `RENDERER`


class Renderer(Protocol):
    """Turns units into text; a document is `open(...)`, units, then `close(...)`."""

    extension: str  # of the files written (`…-part1.xml`)

    def unit(self, unit: Unit) -> str:
        """The unit's text, ending with a line break (a sink cuts documents between units)."""
        ...

    def open(self, root: str, attributes: Mapping[str, Any], *, nested: bool = False) -> str:
        """The head of a document whose root is `root` (`session`, `agent`); `nested`: of a
        section inside an open document (`--stdout` nests agents in the session)."""
        ...

    def close(self, root: str) -> str:
        """The foot matching `open(root, …)`."""
        ...


def renderer_for(name: str = DEFAULT_FORMAT) -> Renderer:
    """The renderer of format `name` (a KeyError for a format there is none of)."""
    module = importlib.import_module(FORMATS[name])
    renderer: Renderer = module.RENDERER
    return renderer

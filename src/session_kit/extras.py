"""The kit's optional extras (`team`: psycopg 3; `parquet`: pyarrow; `mcp`: the MCP SDK) and how to add one to the
kit that is running.

Owns: `install_hint`, the one command every message, error and help names for an extra: the
route that installed this interpreter's kit (`./install.sh --with team`, which keeps it across
reinstalls), else this interpreter's own pip (a kit environment, a plugin's, a checkout's).
Does not install anything, nor import the extras (their commands do, when used).
"""

from __future__ import annotations

import sys
from pathlib import Path

# What each extra installs (pyproject.toml's optional dependencies; a test keeps them equal).
EXTRAS = {"mcp": "mcp>=2.3,<3", "parquet": "pyarrow>=14", "team": "psycopg[binary]>=3.1"}
# install.sh writes the checkout it installed from into its environment, under this name.
INSTALLED_FROM = ".session-kit-source"


def install_hint(extra: str) -> str:
    """The shell command that adds `extra` to the kit this interpreter runs."""
    import shlex  # here: only an error message needs it

    try:
        checkout = (Path(sys.prefix) / INSTALLED_FROM).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        checkout = ""
    if checkout:
        return f"{shlex.quote(str(Path(checkout) / 'install.sh'))} --with {extra}"
    return f"{shlex.quote(sys.executable)} -m pip install {shlex.quote(EXTRAS[extra])}"

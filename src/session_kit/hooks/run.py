"""The command a Claude Code hook runs: `python -I -S <this file> EVENT` (isolated, no `site`:
start-up is most of a hook's cost). Puts the folder holding `session_kit` on the path and hands
over to `hooks.start`; never exits non-zero. Kept short: a script is compiled at every start.
"""

import os
import sys

if sys.version_info < (3, 10):  # noqa: UP036 - this file must run (and say so) on old Pythons
    sys.stderr.write("session-kit hook: needs Python 3.10 or newer; hook skipped\n")
    raise SystemExit(0)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from session_kit.hooks.start import run

run(sys.argv[1:])

"""The command the client's status line runs: `python3 -I -S <this file>`.

A few lines on purpose: Python compiles a script on every run but imports a module from its
cached bytecode, so the work is all in `usage.statusline` (see there). This puts the folder
holding `session_kit` on the path (`-I` leaves it off) and runs its `main`. Importing this
module does nothing.
"""

import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from session_kit.usage.statusline import main

    raise SystemExit(main())

"""`python -m session_kit`: the same as the `session-kit` script."""

from session_kit.cli import run

run()

"""Claude Code hook entry points. Nothing is imported here: `run.py` is started directly."""

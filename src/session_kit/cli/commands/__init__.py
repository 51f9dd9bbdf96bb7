"""One module per command of `session-kit`, named after it (`debug-agent` is `debug_agent.py`).

Each holds its command's options, help and text output, and nothing else: what the command
asks is the core's (through `session_kit.api`), what several commands share is in the
modules beside this package (`cli.context`, `cli.session_arg`, `cli.text`, `cli.envelope`, ...). The group
in `cli/__init__.py` loads a module only when its command runs.
"""

"""The command a Claude Code hook runs: `python -I -S <this file> <event>`.

Started as a script, in isolated mode and without `site`, because interpreter start-up is
most of a hook's cost: it puts the folder holding `session_kit` on the path by itself and
imports only the module of its event (`hooks.live`, `hooks.guard` or `hooks.handlers`: the
standard library, parts of the `state` package and `claude.encoding`; a test lists what each
event loads), and leaves without the interpreter's teardown.
Never exits non-zero: the session must not be blocked by the kit.
"""

import os
import sys

if sys.version_info < (3, 10):  # noqa: UP036 - this file must run (and say so) on old Pythons
    sys.stderr.write("session-kit hook: needs Python 3.10 or newer; hook skipped\n")
    raise SystemExit(0)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

stdin = None
if sys.argv[1:2] == ["pre-tool-use"] and sys.stdin is not None and not sys.stdin.isatty():
    # Before every tool call. A call of the main thread, whose event has no `agent_id` (the
    # client writes keys as they are, unescaped), is never counted or denied: it ends here,
    # before any of the kit is loaded. Anything else goes to the hook, which reports a fault.
    try:
        stdin = sys.stdin.buffer.read()
    except Exception:
        stdin = None
    event = (stdin or b"").strip()
    if event[:1] == b"{" and event[-1:] == b"}" and b'"agent_id"' not in event:
        os._exit(0)

# After the path is set. Each hook loads only its own module: the secret guard runs after
# every tool call, the budget per subagent before every one, and a subagent's start and stop
# need only the live record (`hooks.live`); the rest are `hooks.handlers`'.
if sys.argv[1:2] == ["post-tool-use"]:
    from session_kit.hooks.guard import main
elif sys.argv[1:2] in (["pre-tool-use"], ["subagent-start"], ["subagent-stop"]):
    from session_kit.hooks.live import main
else:
    from session_kit.hooks.handlers import main

code = main(sys.argv[1:], stdin=stdin)
# Out without the interpreter's teardown: it touches every object, and after a hook has forked
# its capture or archive child that copies each page the two still share (measured: ~5 ms of
# CPU, a quarter of a hook's budget). Nothing is left to clean: files are closed, the output
# is flushed here.
try:
    sys.stdout.flush()
    sys.stderr.flush()
finally:
    os._exit(code)

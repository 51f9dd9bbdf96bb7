"""What `run.py` does once the path is set: start the module of the event's hook, then leave.
Standard library only; importing it does nothing.

Owns: which module runs each hook argument (`hooks.guard` for the secret guard, after every
tool call; `hooks.live` for the budget per subagent, before every one, and for a subagent's
start and stop, which need only the live record; `hooks.fresh` for Stop, after each of the
model's turns, and SessionEnd; `hooks.handlers` for the rest), so each
hook loads only what its event needs (a test lists what each loads); the main thread's
PreToolUse ended before any of the kit loads but the state root's module, when no budget per
session may be set (and a subagent's, when no budget per subagent may be set either: its event
has `agent_id`; the client writes keys as they are, unescaped; anything else goes to the hook,
which reports a fault);
and leaving without the interpreter's teardown.
`run.py` itself stays a few lines: a script is compiled on every start (measured: its
compilation was ~7% of a bare interpreter's start), a module's bytecode is cached. No
`from __future__` import here (nothing needs it): it would load a module for the main
thread's PreToolUse, which loads nothing else.
"""

import os
import sys

# Which module of `session_kit.hooks` runs each hook argument (its table of hooks holds it);
# every other argument is `handlers`'. A test keeps the tables and this one the same.
MODULES = {
    "post-tool-use": "guard",
    "pre-tool-use": "live",
    "subagent-start": "live",
    "subagent-stop": "live",
    "stop": "fresh",
    "session-end": "fresh",
}


# The hooks `hooks.quick` may answer (with nothing) before their own module loads.
QUICK = ("pre-tool-use", "user-prompt-submit")


def session_budget_may_be_set(env=None, root=None) -> bool:
    """Whether a budget per session may be set, the cheap test before every prompt and tool
    call (`state.budgets` reads it): the variable, or a config file that names a `session`
    section."""
    return _budget_may_be_set("SESSION_KIT_SESSION_BUDGET", b'"session"', env, root)


def agent_budget_may_be_set(env=None, root=None) -> bool:
    """Whether a budget per subagent may be set (`state.budgets.agent_budget_may_be_set` says
    whether one is): the variable, or a config file that names an `agents` section."""
    return _budget_may_be_set("SESSION_KIT_AGENT_BUDGET", b'"agents"', env, root)


def _budget_may_be_set(variable: str, section: bytes, env, root) -> bool:
    env = os.environ if env is None else env
    if env.get(variable, "").strip():
        return True
    try:
        if root is None:
            from session_kit.state.root import state_root

            root = state_root(env)
        path = os.path.join(root, "config.json")
        if not os.path.isfile(path):  # none, or a FIFO or device planted there: never waited on
            return False
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO swapped in since: never waited on
        try:
            data = os.read(fd, 256 * 1024)
        finally:
            os.close(fd)
    except Exception:  # no config file (or none readable): no budget from it
        return False
    return section in data


def run(argv: list) -> None:
    """Run hook `argv[0]` on the event on stdin, and end the process with its code (0)."""
    stdin = None
    hook = argv[0] if argv else ""
    if hook in QUICK and sys.stdin is not None and not sys.stdin.isatty():
        try:
            stdin = sys.stdin.buffer.read()
        except Exception:  # the hook reads it again and reports what is wrong
            stdin = None
        event = (stdin or b"").strip()
        # a subagent's call is the quick check's too when no budget per subagent can apply
        if event[:1] == b"{" and event[-1:] == b"}" and (b'"agent_id"' not in event or not agent_budget_may_be_set()):
            if hook == "pre-tool-use" and not session_budget_may_be_set():
                os._exit(0)
            from session_kit.hooks.quick import nothing_to_say

            if nothing_to_say(hook, stdin, os.environ, session_budget_may_be_set):
                os._exit(0)
    module = MODULES.get(argv[0] if argv else "", "handlers")
    code = __import__("session_kit.hooks." + module, fromlist=("main",)).main(argv, stdin=stdin)
    # Out without the interpreter's teardown: it touches every object, and after a hook has
    # forked its capture or archive child that copies each page the two still share
    # (measured: ~5 ms of CPU, a quarter of a hook's budget). Nothing is left to clean: files
    # are closed, the output is flushed here.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)

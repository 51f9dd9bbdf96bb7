"""The shared end-to-end scenario: one scripted session of the real client, run once per test run.

Owns the script (what the fake model does), the three client runs (first prompt, ``/compact``,
a follow-up with ``--resume``) and the names tests look for. The transcripts it leaves are what
``test_real_client_transcripts`` checks, what ``test_kit_on_real_transcripts`` feeds to the kit,
and what ``real_fixtures`` copies into ``tests/fixtures/real/``.

The session, turn by turn (main conversation):
 0. thinking + text + ``Bash echo scenario-hello`` (succeeds)
 1. ``Bash ls /nonexistent-dir`` (fails, exit code 2)
 2. ``Write notes.txt`` / 3. ``Read notes.txt`` / 4. ``Edit notes.txt``
 5. two ``Agent`` calls in one message: ``Plan`` in the foreground (its result is the agent's
    report) and ``general-purpose`` in the background (result ``async_launched``); the latter's
    own ``Bash cat /nonexistent-subagent-file`` fails
 6. ``ExitPlanMode`` with a plan (refused in ``-p`` mode, but written to the transcript)
 7. a closing text; later turns (the background agent's notification) get the default reply
Then ``-p /compact --resume``, then ``-p FOLLOW_UP --resume`` whose answer runs one more Bash.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .client import Claude, ClaudeHome, ClaudeRun
from .fake_api import FakeMessagesAPI, Script, agent, bash, exit_plan_mode, text, thinking, tool_use

FIRST_PROMPT = "SCENARIO-START: exercise the tools, two subagents and a plan"
FOLLOW_UP_PROMPT = "SCENARIO-FOLLOW-UP: anything left after the compaction?"
PLAN_AGENT_PROMPT = "PLAN-AGENT: design how notes.txt should change"
GP_AGENT_PROMPT = "GP-AGENT: look for a file that is not there"
PLAN_AGENT_REPORT = "Plan agent report: keep alpha, replace beta with gamma."
GP_AGENT_REPORT = "General agent report: the file is missing."
PLAN_TEXT = "1. Write notes.txt\n2. Replace beta with gamma\n3. Check with the Plan agent"
NOTES_CONTENT = "alpha\nbeta scenario-needle\n"
COMPACT_SUMMARY = (
    "<analysis>Scripted.</analysis>\n<summary>\nSCENARIO-SUMMARY: the session ran Bash (one call "
    "failed), wrote, read and edited notes.txt, ran a Plan and a general-purpose agent, and "
    "proposed a plan.\n</summary>"
)
FAILING_COMMAND = "ls /nonexistent-dir"
SUBAGENT_FAILING_COMMAND = "cat /nonexistent-subagent-file"


def script(project: Path) -> Script:
    notes = str(project / "notes.txt")
    return Script(
        main={
            "SCENARIO-START": [
                [
                    thinking("Start with a harmless command."),
                    text("Looking around first."),
                    bash("echo scenario-hello", description="Print a greeting"),
                ],
                [bash(FAILING_COMMAND, description="List a missing directory")],
                [tool_use("Write", {"file_path": notes, "content": NOTES_CONTENT})],
                [tool_use("Read", {"file_path": notes})],
                [tool_use("Edit", {"file_path": notes, "old_string": "beta", "new_string": "gamma"})],
                [
                    agent("Plan", PLAN_AGENT_PROMPT, description="Design the change", background=False),
                    agent("general-purpose", GP_AGENT_PROMPT, description="Look for a missing file"),
                ],
                [text("Here is the plan."), exit_plan_mode(PLAN_TEXT)],
                "SCENARIO-DONE: the first prompt is handled.",
            ],
            "SCENARIO-FOLLOW-UP": [
                [bash("echo after-compaction", description="Print a marker")],
                "SCENARIO-FOLLOW-UP-DONE: nothing is left.",
            ],
        },
        agents={
            "PLAN-AGENT": [PLAN_AGENT_REPORT],
            "GP-AGENT": [
                [bash(SUBAGENT_FAILING_COMMAND, description="Read a missing file")],
                GP_AGENT_REPORT,
            ],
        },
        compact_summary=COMPACT_SUMMARY,
    )


@dataclass(frozen=True)
class ScenarioRun:
    root: Path
    home: ClaudeHome
    project: Path
    fake: FakeMessagesAPI
    claude: Claude
    first: ClaudeRun
    compact: ClaudeRun
    follow_up: ClaudeRun
    duration: float

    @property
    def session_id(self) -> str:
        assert self.first.session_id, self.claude.explain(self.first, "no session id in the result")
        return self.first.session_id

    @property
    def transcript(self) -> Path:
        path = self.claude.transcript_path(self.session_id)
        assert path is not None, self.claude.explain(self.follow_up, "no transcript was written")
        return path

    @property
    def subagents_dir(self) -> Path:
        return self.transcript.parent / self.session_id / "subagents"


def run_scenario(binary: Path, root: Path) -> ScenarioRun:
    """Run the scenario with its own home and fake under ``root`` (a plain, stable-looking path)."""
    home = ClaudeHome.create(root)
    project = root / "project"
    project.mkdir()
    started = time.monotonic()
    with FakeMessagesAPI(script(project)) as fake:
        claude = Claude(binary, home, fake, cwd=project)
        first = claude.run(FIRST_PROMPT)
        assert first.session_id, claude.explain(first, "no session id in the result")
        compact = claude.run("/compact", resume=first.session_id)
        follow_up = claude.run(FOLLOW_UP_PROMPT, resume=first.session_id)
    return ScenarioRun(
        root=root,
        home=home,
        project=project,
        fake=fake,
        claude=claude,
        first=first,
        compact=compact,
        follow_up=follow_up,
        duration=time.monotonic() - started,
    )

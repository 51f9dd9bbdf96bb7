"""The whole pipeline (`preprocess_session`) on hand-made and real-client transcripts."""

from __future__ import annotations

import io
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session_kit.errors import KitError
from session_kit.preprocess import PreprocessOptions, PreprocessResult, preprocess_session
from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.store import session_ref_from_path
from tests.support.sessions import build
from tests.support.transcripts import Transcript

REAL = Path(__file__).parent.parent / "fixtures" / "real"
REAL_ID = next((REAL / "projects").glob("*/*.jsonl")).stem


def run(ref, tmp_path: Path, **options) -> PreprocessResult:
    options.setdefault("output_dir", tmp_path / "out")
    return preprocess_session(ref, PreprocessOptions(**options))


def parse(path: Path) -> ET.Element:
    return ET.fromstring(path.read_bytes())


def session_doc(result: PreprocessResult) -> ET.Element:
    (doc,) = [d for d in result.documents if d.source == "session"]
    return parse(doc.path)


def everything(result: PreprocessResult) -> str:
    return "".join(d.path.read_text(encoding="utf-8") for d in result.documents)


def write(t: Transcript, root: Path):
    return session_ref_from_path(t.write_session(root))


def conversation(t: Transcript) -> Transcript:
    t.user("Fix the parser please")
    t.say("Looking at it.")
    t.bash("make test", "all good")
    t.say("Done.")
    return t


# --- the real client's files ----------------------------------------------------------------


def test_real_session_keeps_what_matters_and_drops_the_noise(tmp_path: Path):
    ref = resolve_session(REAL_ID, REAL)
    result = run(ref, tmp_path)
    assert result.status == "ok"
    root = session_doc(result)
    assert root.tag == "session" and root.get("id") == REAL_ID and root.get("part") == "1"
    text = ET.tostring(root, encoding="unicode")
    assert "SCENARIO-START" in text and "SCENARIO-FOLLOW-UP-DONE" in text
    assert "skill_listing" not in text and "prompt_snapshot" not in text  # noise
    failed = [e for e in root.iter("tool_result") if e.get("status") == "error"]
    assert any(e.get("exit_code") == "2" and "nonexistent-dir" in (e.text or "") for e in failed)
    assert root.find("compact_boundary").get("trigger") == "manual"
    assert "SCENARIO-SUMMARY" in root.find("compact_summary").text
    assert root.find("user[@kind='client-command']").text == "/compact"
    assert not list(root.iter("thinking"))
    bash = root.find(".//tool_use[@name='Bash']")
    assert bash.find("param[@name='command']").text == "echo scenario-hello"
    # agents: both, each its own document with its type, description and spawning call
    agents = {a.agent_id: a for a in result.agents}
    assert {a.agent_type for a in agents.values()} == {"Plan", "general-purpose"}
    for doc in (d for d in result.documents if d.source == "agent"):
        agent = parse(doc.path)
        info = agents[doc.agent_id]
        assert agent.tag == "agent" and agent.get("type") == info.agent_type
        assert agent.get("description") == info.description and agent.get("session") == REAL_ID
        assert root.find(f".//tool_use[@id='{agent.get('tool_use_id')}']") is not None
    gp = next(a for a in agents.values() if a.agent_type == "general-purpose")
    assert "nonexistent-subagent-file" in everything(result)
    assert gp.status == "ok"
    # the reduction: most of the bytes were noise
    red = result.reduction
    assert red.output_chars < red.input_chars / 10
    assert red.steps["noise"].chars > 0.8 * red.input_chars
    assert result.read.malformed == 0


def test_thinking_is_kept_when_asked(tmp_path: Path):
    result = run(resolve_session(REAL_ID, REAL), tmp_path, thinking=True)
    assert session_doc(result).find(".//thinking").text == "Start with a harmless command."


def test_stdout_is_one_document_with_the_agents_inside(tmp_path: Path):
    sink = io.StringIO()
    result = preprocess_session(resolve_session(REAL_ID, REAL), PreprocessOptions(to_stdout=True), stream=sink)
    root = ET.fromstring(sink.getvalue().encode("utf-8"))
    assert root.tag == "session" and len(root.findall("agent")) == 2
    assert result.documents[0].path is None and result.documents[0].chars == len(sink.getvalue())
    assert result.paths == []


# --- steps in the pipeline ----------------------------------------------------------------------


def test_entries_of_another_session_are_dropped_and_entries_without_one_kept(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    t.raw({"type": "user", "sessionId": "someone-else", "message": {"role": "user", "content": "FOREIGN"}})
    t.raw({"type": "user", "message": {"role": "user", "content": "NO-SESSION-ID"}})
    result = run(write(t, claude_root), tmp_path)
    out = everything(result)
    assert "FOREIGN" not in out and "NO-SESSION-ID" in out
    assert result.reduction.steps["session_filter"].entries == 1


def test_a_workflow_agents_entries_are_the_sessions_own(tmp_path: Path, claude_root: Path):
    # 2.1.x workflow agents' logs write the session's id followed by `#agent-<id>`.
    t = conversation(Transcript())
    ref = write(t, claude_root)
    wf = Transcript(f"{t.session_id}#agent-a0f10w01", cwd=t.cwd, agent_id="a0f10w01", start=t.clock)
    wf.user("WORKFLOW: step one")
    wf.bash("make lint", "LINT-IS-CLEAN")
    wf.say("Lint is clean.")
    wf.write(
        claude_root
        / "projects"
        / ref.project.name
        / t.session_id
        / "subagents"
        / "workflows"
        / "run-1"
        / "agent-a0f10w01.jsonl"
    )
    result = run(ref, tmp_path)
    assert "LINT-IS-CLEAN" in everything(result)
    assert result.reduction.steps["session_filter"].entries == 0


def test_without_filtering_entries_of_another_session_are_kept_as_show_counts_them(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    t.raw({"type": "user", "sessionId": "someone-else", "message": {"role": "user", "content": "FOREIGN"}})
    assert "FOREIGN" in everything(run(write(t, claude_root), tmp_path, filtering=False))


def test_noise_is_dropped_whatever_its_key_order(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    t.noise("attachment", size=5000)
    t.raw({"parentUuid": None, "attachment": {"type": "skill_listing", "content": "NOISE-A"}, "type": "attachment"})
    t.raw({"type": "file-history-snapshot", "snapshot": {"note": "NOISE-B"}})
    t.raw({"sessionId": t.session_id, "type": "api-request", "system": "NOISE-C"})
    result = run(write(t, claude_root), tmp_path)
    assert not any(n in everything(result) for n in ("NOISE-A", "NOISE-B", "NOISE-C", "yyyy", "xxxx"))
    assert result.reduction.steps["noise"].entries == 4


def test_log_discovery_calls_go_with_their_results(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    t.bash("pwd", "/work/proj")
    t.bash("ls -la ~/.claude/projects/-work-proj", "LISTING-OF-LOGS")
    t.bash(f"find {claude_root}/projects -name '*.jsonl'", "FOUND-LOGS")
    result = run(write(t, claude_root), tmp_path)
    out = everything(result)
    assert "LISTING-OF-LOGS" not in out and "FOUND-LOGS" not in out and "pwd" not in out
    assert "make test" in out
    assert result.reduction.steps["log_discovery"].entries == 6


def test_empty_session_writes_nothing_and_says_so(tmp_path: Path, claude_root: Path):
    t = Transcript()
    t.user(
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>"
    )
    t.user("<local-command-stdout></local-command-stdout>")
    result = run(write(t, claude_root), tmp_path)
    assert (result.status, result.reason, result.documents) == ("empty", "no conversation", ())
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
    written = run(write(t, claude_root), tmp_path, filtering=False)
    assert written.status == "ok" and 'kind="client-command"' in everything(written)


def test_one_request_and_one_answer_is_a_session(tmp_path: Path, claude_root: Path):
    t = Transcript()
    t.user("What does this repo do?")
    t.say("It reads transcripts.")
    result = run(write(t, claude_root), tmp_path)
    assert result.status == "ok" and "It reads transcripts." in everything(result)


def test_session_without_assistant_text_is_kept(tmp_path: Path, claude_root: Path):
    t = Transcript()
    t.user("Run it")
    t.bash("make", "ok")
    result = run(write(t, claude_root), tmp_path)
    assert result.status == "ok" and "Run it" in everything(result)


def test_warmup_session_is_reported(tmp_path: Path, claude_root: Path):
    t = Transcript()
    t.user("Warmup")
    t.say("Ready.")
    t.bash("true", "")
    result = run(write(t, claude_root), tmp_path)
    assert result.status == "warmup" and not result.documents


def test_repeated_documentation_becomes_a_reference(tmp_path: Path, claude_root: Path):
    doc = "# /deploy\n" + "Step: build, test, tag, push, announce.\n" * 10
    t = conversation(Transcript())
    t.user(doc, isMeta=True)
    t.say("Deploying.")
    t.user(doc, isMeta=True)
    t.say("Deploying again.")
    result = run(write(t, claude_root), tmp_path)
    root = session_doc(result)
    metas = root.findall("user[@kind='meta']")
    assert metas[0].text == doc
    ref = metas[1].find("same_as")
    assert ref is not None and ref.get("line") == metas[0].get("line") and ref.get("chars") == str(len(doc))
    assert result.reduction.steps["dedup_docs"].chars == len(doc)


def test_long_parameters_are_truncated_paths_keep_their_ends(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    deep = "/work/proj/" + "/".join(["nested"] * 40) + "/pkg/module.py"
    w = t.tool_use("Write", {"file_path": deep, "content": "A" * 1000})
    t.tool_result(w, "written")
    t.say("Written.")
    root = session_doc(run(write(t, claude_root), tmp_path))
    use = root.find(".//tool_use[@name='Write']")
    assert use.find("param[@name='file_path']").text == "/work/proj/…/pkg/module.py"
    assert use.find("param[@name='content']").text == "A" * 200 + "… [+800 chars]"


def test_an_assistant_text_repeated_before_a_tool_use_is_dropped(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    t.tool_use("Bash", {"command": "make a"}, text="Let me check the build.")
    t.tool_use("Bash", {"command": "make b"}, text="Let me check the build.")
    t.say("Let me check the build.")  # no tool use: kept
    result = run(write(t, claude_root), tmp_path)
    texts = [e.text for e in session_doc(result).iter("text")]
    assert texts.count("Let me check the build.") == 2
    assert result.reduction.steps["duplicate_text"].entries == 1


def test_long_tool_output_is_pruned_to_its_head_and_error_lines(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    output = "\n".join(
        [f"collecting {i}" for i in range(200)] + ["E   AssertionError: 1 != 2", "FAILED test_x.py::test_y"]
    )
    t.bash("pytest", output, exit_code=1)
    t.say("It failed.")
    root = session_doc(run(write(t, claude_root), tmp_path))
    result_el = [e for e in root.iter("tool_result") if e.get("status") == "error"][0]
    assert result_el.get("exit_code") == "1" and result_el.get("lines") == "203"
    text = "".join(result_el.itertext())
    assert "collecting 28" in text and "collecting 100" not in text
    assert "AssertionError: 1 != 2" in text and "FAILED test_x.py" in text
    assert result_el.find("omitted").get("lines") == "171"  # collecting 29-199


def test_filtering_off_keeps_outputs_and_parameters_whole(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    t.bash("seq 100", "\n".join(map(str, range(100))))
    result = run(write(t, claude_root), tmp_path, filtering=False)
    assert "\n99</tool_result>" in everything(result)


def test_secrets_are_redacted_unless_asked_not_to(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    t.bash("cat .env", "OPENAI_API_KEY=sk-proj-4fT9kQ2wX7mN1pR8sV3yB6cH0jL5dG2e\nDEBUG=1")
    c = t.tool_use("Login", {"user": "ann", "password": "hunter22"})
    t.tool_result(c, "ok")
    t.say("Loaded.")
    ref = write(t, claude_root)
    result = run(ref, tmp_path)
    out = everything(result)
    assert "sk-proj-4fT9" not in out and "[REDACTED:openai-api-key]" in out
    assert "hunter22" not in out and '<param name="password">[REDACTED:password]</param>' in out
    assert result.redactions == {"openai-api-key": 1, "password": 1}
    kept = run(ref, tmp_path / "raw", redact=False)
    assert "sk-proj-4fT9" in everything(kept) and "hunter22" in everything(kept) and not kept.redactions


def test_control_characters_and_markup_in_text_stay_well_formed(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript())
    t.bash("printf", "bell\x07 nul\x00 esc\x1b[31m </tool_result> ]]> & LONE-SURROGATE")
    t.say('<div class="x">&amp;</div>')
    path = t.write_session(claude_root)
    # A lone surrogate can only be written as a JSON escape, as a client cut mid-emoji would.
    path.write_bytes(path.read_bytes().replace(b"LONE-SURROGATE", b"\\ud83d lone"))
    root = session_doc(run(session_ref_from_path(path), tmp_path))
    output = [e for e in root.iter("tool_result") if "bell" in (e.text or "")][0].text
    assert output == "bell\ufffd nul\ufffd esc\ufffd[31m </tool_result> ]]> & \ufffd lone"
    assert root.findall(".//text")[-1].text == '<div class="x">&amp;</div>'


def test_a_compaction_is_elements_and_a_2025_summary_is_the_sessions_title(tmp_path: Path, claude_root: Path):
    built = build(claude_root)
    current = run(resolve_session(built.current.session_id, claude_root), tmp_path / "a")
    root = session_doc(current)
    assert root.find("compact_boundary") is not None
    assert root.find("compact_summary").text.startswith("Summary: the feature was planned")
    # the 2025 session has no assistant text (an empty session), so filtering is off here
    old = run(resolve_session(built.legacy.session_id, claude_root), tmp_path / "b", filtering=False)
    doc = session_doc(old)
    assert doc.find("summary") is None and doc.get("title") == "Earlier: explored the repo"


def test_agents_of_both_layouts_and_only_this_sessions(tmp_path: Path, claude_root: Path):
    built = build(claude_root)
    other = Transcript(cwd=built.legacy.cwd)  # a second session in the legacy project
    conversation(other)
    stranger = Transcript(other.session_id, cwd=other.cwd, agent_id="5742a9e7")
    stranger.user("NOT-THIS-SESSION")
    stranger.say("no")
    other.write_session(claude_root)
    stranger.write_legacy_agent(claude_root, other)

    current = run(resolve_session(built.current.session_id, claude_root), tmp_path / "a")
    assert sorted(a.agent_id for a in current.agents) == sorted([built.plan_agent, built.worker_agent])
    worker = next(d for d in current.documents if d.agent_id == built.worker_agent)
    root = parse(worker.path)
    assert root.get("type") == "general-purpose" and root.get("description") == "Run the checks"
    assert root.get("layout") == "subagents" and worker.path.name.endswith(f"-agent-{built.worker_agent}-part1.xml")
    assert "SENTINEL_FAILURE" in worker.path.read_text()

    legacy = run(resolve_session(built.legacy.session_id, claude_root), tmp_path / "b", filtering=False)
    (agent,) = legacy.agents
    assert (agent.agent_id, agent.layout, agent.agent_type, agent.description) == (
        built.legacy_agent,
        "legacy",
        "Explore",
        "Explore code",
    )
    assert "NOT-THIS-SESSION" not in everything(legacy)
    no_agents = run(
        resolve_session(built.legacy.session_id, claude_root), tmp_path / "c", agents=False, filtering=False
    )
    assert not no_agents.agents


def test_the_default_output_folder_is_the_sessions_scratch_dir(claude_root: Path):
    t = conversation(Transcript())
    ref = write(t, claude_root)
    result = preprocess_session(ref)
    state_root = Path(os.environ["SESSION_KIT_HOME"])
    assert result.output_dir is not None and state_root in result.output_dir.parents
    assert t.session_id in str(result.output_dir)
    assert [p.name for p in result.paths] == [f"session-{t.session_id}-part1.xml"]


@pytest.mark.parametrize(
    "options",
    [
        {"to_stdout": True, "max_tokens": 1000},
        {"to_stdout": True, "output_dir": Path("/tmp")},
        {"to_stdout": True, "distill": True},
        {"max_tokens": 10},
        {"prefix": "../evil"},
    ],
)
def test_options_that_do_not_go_together_are_usage_errors(options: dict, claude_root: Path):
    ref = write(conversation(Transcript()), claude_root)
    with pytest.raises(KitError) as info:
        preprocess_session(ref, PreprocessOptions(**options), stream=io.StringIO())
    assert info.value.exit_code == 2


def test_distill_without_the_client_fails_before_any_work(claude_root: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    monkeypatch.delenv("SESSION_KIT_CLAUDE", raising=False)
    ref = write(conversation(Transcript()), claude_root)
    with pytest.raises(KitError, match="claude. is not on PATH") as info:
        preprocess_session(ref, PreprocessOptions(output_dir=tmp_path / "out", distill=True))
    assert info.value.exit_code == 3 and not (tmp_path / "out").exists()


# --- chunking, end to end -------------------------------------------------------------------------


def _lines(result: PreprocessResult, source: str = "session") -> list[str]:
    found = []
    for doc in result.documents:
        if doc.source == source:
            found += [child.get("line") for child in parse(doc.path)]
    return found


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(min_value=100, max_value=2000), seed=st.integers(min_value=0, max_value=10_000))
def test_chunks_are_documents_and_together_hold_every_entry_once(tmp_path_factory, budget: int, seed: int):
    root = tmp_path_factory.mktemp("claude")
    ref = resolve_session(REAL_ID, REAL)
    whole = run(ref, root / "whole")
    parts = run(ref, root / "parts", max_tokens=budget, prefix=f"p{seed}")
    assert _lines(parts) == _lines(whole)
    for doc in parts.documents:
        assert doc.path.name.startswith(f"p{seed}-{REAL_ID}-")
        parsed = parse(doc.path)
        if len(parsed) > 1:
            assert doc.chars <= budget * 4
    assert _lines(parts, "agent") == _lines(whole, "agent")


def test_json_report_shape(tmp_path: Path):
    result = run(resolve_session(REAL_ID, REAL), tmp_path, max_tokens=500)
    data = json.loads(json.dumps(result.as_dict()))
    assert data["status"] == "ok" and data["session_id"] == REAL_ID
    assert data["files"] == [str(p) for p in result.paths]
    assert {d["source"] for d in data["documents"]} == {"session", "agent"}
    assert all(d["tokens"] * 4 >= d["chars"] for d in data["documents"])
    assert data["reduction"]["input_chars"] > data["reduction"]["output_chars"] > 0
    assert [a["type"] for a in data["agents"]] == ["Plan", "general-purpose"]


# --- a file is what it holds -----------------------------------------------------------------


def test_a_renamed_copy_is_converted_whole_and_a_sessions_own_file_drops_foreign_entries(
    claude_root: Path, tmp_path: Path
):
    t = Transcript("f11e0000-0000-0000-0000-000000000001")
    t.user("MINE: do it")
    t.say("done")
    t.user("MINE: again")
    foreign = Transcript("f11e0000-0000-0000-0000-000000000002", start=t.clock)
    foreign.user("FOREIGN: other")
    t.lines.extend(foreign.lines)
    own = t.write_session(claude_root)
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(own.read_bytes())
    kept = run(session_ref_from_path(copy), tmp_path / "a")
    filtered = run(resolve_session(t.session_id, claude_root), tmp_path / "b")
    assert kept.ok and "MINE: do it" in everything(kept) and "FOREIGN: other" in everything(kept)
    assert filtered.ok and "MINE: do it" in everything(filtered) and "FOREIGN: other" not in everything(filtered)


def test_client_boilerplate_is_dropped_like_noise_keeping_the_agent_id(tmp_path: Path):
    result = run(resolve_session(REAL_ID, REAL), tmp_path)
    text = everything(result)
    assert "Async agent launched successfully" not in text and "never quote or paste" not in text
    assert "Async agent launched (agentId a2ca1db92956813a7)" in text
    assert "<system-reminder>" not in text and "&lt;system-reminder&gt;" not in text


def test_a_system_reminder_in_a_user_turn_is_dropped_and_the_prompt_kept(tmp_path: Path, claude_root: Path):
    t = Transcript()
    t.user(
        "<system-reminder>\nThe date is 2026-11-20. " + "meta " * 100 + "\n</system-reminder>\nFix the parser please"
    )
    t.say("Looking at it.")
    t.bash("make test", "all good")
    t.say("Done.")
    text = everything(run(write(t, claude_root), tmp_path))
    assert "Fix the parser please" in text and "system-reminder" not in text and "meta meta" not in text


def test_a_legacy_log_with_an_empty_agent_id_never_overwrites_the_sessions_own_part(tmp_path: Path, claude_root: Path):
    t = conversation(Transcript(cwd="/work/empty-agent"))
    ref = write(t, claude_root)
    legacy = Transcript(t.session_id, cwd=t.cwd, agent_id="", start=t.clock)
    legacy.user("the agent with no id")
    legacy.say("its answer")
    legacy.write(ref.project / "agent-.jsonl")
    result = run(ref, tmp_path)
    sources = sorted((d.source, d.path.name) for d in result.documents)
    assert [s for s, _ in sources] == ["agent", "session"]
    assert len({name for _, name in sources}) == 2
    assert "Fix the parser please" in "".join(session_doc(result).itertext())


def test_commands_the_client_or_the_model_ran_are_marked_apart_from_the_persons(tmp_path: Path, claude_root: Path):
    t = Transcript()
    t.user(
        "<command-name>/plugin</command-name>\n<command-message>plugin</command-message>\n<command-args></command-args>"
    )
    t.user("<command-name>/fix-issue</command-name>\n<command-args>42</command-args>")
    t.say("Running the replan.")
    launched = t.user(
        "<command-message>erk:replan is running…</command-message>\n<command-name>/erk:replan</command-name>"
    )
    launched["sourceToolUseID"] = "toolu_01V9KZxg5TC4VA8e4v9ft7sL"
    t.say("Replanned.")
    root = session_doc(run(write(t, claude_root), tmp_path))
    kinds = [(e.get("kind"), e.text) for e in root.iter("user")]
    assert kinds == [("client-command", "/plugin"), ("command", "/fix-issue 42"), ("model-command", "/erk:replan")]

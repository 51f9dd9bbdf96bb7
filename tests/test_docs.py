"""The README and docs/: a front page of at most 10 KB, links that resolve (files and their
headings), a command-line reference equal to what `--help` prints, and the README's two set-up
commands the ones that exist."""

from __future__ import annotations

import re
from pathlib import Path
from unittest.mock import patch

import click
import pytest
from click.testing import CliRunner

from session_kit.cli import COMMANDS, main
from session_kit.cli.reference import COLUMNS, WIDTH, commands, render, same_everywhere
from tests.support.cli import run

REPO = Path(__file__).parents[1]
README = REPO / "README.md"
PAGES = sorted([README, *(REPO / "docs").rglob("*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            base = slug(line.lstrip("#"))
            name, n = base, 1
            while name in found:  # GitHub numbers repeated headings
                name, n = f"{base}-{n}", n + 1
            found.add(name)
    return found


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [a or b for a, b in LINK.findall(text)]


def test_the_readme_is_a_front_page_of_at_most_10_kb():
    assert len(README.read_bytes()) <= 10 * 1024


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_link_resolves_to_a_file_and_a_heading(page: Path):
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (fragment and file.suffix == ".md" and fragment not in anchors(file)):
            broken.append(target)
    assert broken == []


def test_the_docs_hold_a_tutorial_how_to_guides_and_the_reference():
    docs = REPO / "docs"
    assert (docs / "tutorial.md").is_file() and (docs / "architecture.md").is_file()
    assert {"debug-an-agent.md", "search-history.md"} <= {p.name for p in (docs / "how-to").glob("*.md")}
    assert {"cli.md", "json.md"} <= {p.name for p in (docs / "reference").glob("*.md")}


def test_the_cli_reference_is_generated_from_the_code():
    assert (REPO / "docs" / "reference" / "cli.md").read_text(encoding="utf-8") == render(), (
        "run: python -m session_kit.cli.reference > docs/reference/cli.md"
    )


def test_the_cli_reference_names_every_command():
    names = {name for name, _ in commands()}
    assert {f"session-kit {c}" for c in COMMANDS} <= names and "session-kit scratch set" in names


@pytest.mark.parametrize("name", [name for name, _ in commands()])
def test_each_commands_reference_is_what_its_help_prints(name: str):
    page = (REPO / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    section = page.split(f"\n## {name}\n\n```text\n", 1)[1].split("\n```\n", 1)[0]
    printed = CliRunner().invoke(main, [*name.split()[1:], "--help"], prog_name="session-kit", terminal_width=WIDTH)
    assert same_everywhere(printed.stdout) == section + "\n"


def test_the_reference_is_what_the_real_program_prints_on_a_wide_terminal():
    page = (REPO / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    section = page.split("\n## session-kit show\n\n```text\n", 1)[1].split("\n```\n", 1)[0]
    assert same_everywhere(run("show", "--help", env={"COLUMNS": str(COLUMNS + 20)}).stdout) == section + "\n"


def test_the_readme_opens_with_exactly_the_two_set_up_commands_and_they_exist():
    text = README.read_text(encoding="utf-8")
    first_block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    commands_ = [line.split("#")[0].strip() for line in first_block.splitlines() if line.split("#")[0].strip()]
    assert commands_ == ["./install.sh", "bash tests/run.sh"]
    assert text.index("```sh") < 1500  # at the top
    assert (REPO / "install.sh").is_file() and (REPO / "tests" / "run.sh").is_file()
    assert "exec bash tests/run.sh" in (REPO / ".ci" / "run").read_text()


def test_the_readme_names_the_three_install_routes():
    text = README.read_text(encoding="utf-8")
    assert "./install.sh" in text and "claude --plugin-dir" in text
    assert "claude plugin marketplace add" in text and "claude plugin install session-kit@session-kit" in text


PROSE = [README, *(p for p in PAGES if p.name not in {"cli.md", "json.md"} and p != README)]
COMMAND_LINE = re.compile(
    r"session-kit ((?:[a-z][a-z-]*)(?: (?:clean|get|list|note|path|set|show|unset))?)((?: [^`#\n|]*)?)"
)


def _command(name: str) -> click.Command | None:
    ctx = click.Context(main, info_name="session-kit")
    words = name.split()
    command = main.get_command(ctx, words[0])
    if command is not None and len(words) > 1 and isinstance(command, click.Group):
        return command.get_command(ctx, words[1]) or command
    return command


def _mentions(page: Path) -> list[tuple[str, list[str], bool]]:
    """Each `session-kit COMMAND --option …` the page writes, with the options it names, and
    whether it opens a line of a code example (where it must be a command)."""
    found = []
    for line in page.read_text(encoding="utf-8").splitlines():
        for match in COMMAND_LINE.finditer(line):
            name, rest = match.groups()
            rest = re.split(r"&&|;|\||\(", rest)[0]
            example = line.lstrip().startswith("session-kit ") and match.start() == len(line) - len(line.lstrip())
            found.append((name, re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest), example))
    return found


@pytest.mark.parametrize("page", PROSE, ids=lambda p: str(p.relative_to(REPO)))
def test_every_command_and_option_the_docs_name_exists(page: Path):
    wrong = []
    for name, options, example in _mentions(page):
        command = _command(name)
        if command is None:
            wrong += [name] if example else []
            continue
        known = {opt for param in command.params for opt in param.opts} | {"--help", "--json", "--claude-dir"}
        wrong += [f"{name} {opt}" for opt in options if opt not in known]
    assert wrong == []


def test_every_environment_variable_the_docs_name_is_read_somewhere():
    named = set()
    for page in PROSE:
        named |= set(re.findall(r"\bSESSION_KIT_[A-Z_]+\b", page.read_text(encoding="utf-8")))
    code = "".join(
        p.read_text(encoding="utf-8", errors="replace")
        for folder in ("src", "bin", "hooks", "tests/e2e")
        for p in (REPO / folder).rglob("*")
        if p.is_file() and p.suffix in {"", ".py", ".sh"}
    )
    code += (REPO / "install.sh").read_text() + (REPO / "tests" / "run.sh").read_text()
    code += (REPO / "tests" / "support" / "browser.py").read_text() + (
        REPO / "tests" / "real" / "corpus.py"
    ).read_text()
    assert sorted(n for n in named if n not in code) == []


def test_the_exit_code_table_is_the_codes_errors_py_defines():
    from session_kit import errors

    page = (REPO / "docs" / "reference" / "configuration.md").read_text(encoding="utf-8")
    table = {int(m) for m in re.findall(r"(?m)^\| (\d+) \|", page)}
    assert table == {v for k, v in vars(errors).items() if k.startswith("EXIT_") and isinstance(v, int)}


def test_every_guard_the_architecture_names_is_a_test_that_exists():
    """`docs/architecture.md` ties a rule to the test that keeps it single (`*guarded*:
    `tests/…py::test_…``): the file and the test must be there."""
    text = (REPO / "docs" / "architecture.md").read_text()
    named = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", text)
    assert len(named) >= 10
    missing = [
        f"{path}::{test}" if test else path
        for path, test in named
        if not (REPO / path).is_file() or (test and not re.search(rf"^def {test}\(", (REPO / path).read_text(), re.M))
    ]
    assert missing == []


def test_the_hooks_reference_names_every_event_the_kit_knows():
    from session_kit.base.hook_events import ALL_HOOK_EVENTS, UNREGISTERED_EVENTS

    page = (REPO / "docs" / "reference" / "hooks.md").read_text(encoding="utf-8")
    assert [e for e in [*ALL_HOOK_EVENTS, *UNREGISTERED_EVENTS] if not re.search(rf"\b{e}\b", page)] == []


@pytest.mark.parametrize("at", ["-", "/", " "])
def test_a_path_click_wrapped_at_a_hyphen_a_slash_or_a_space_is_still_the_same_everywhere(at: str):
    from session_kit.cli.context import JSON_DOC
    from session_kit.cli.reference import JSON_DOC_SHOWN, same_everywhere

    path = "/tmp/my projects/claude-session-kit" + str(JSON_DOC)
    cut = path.rindex(at) + 1
    wrapped = f"its shapes:\n  {path[:cut].rstrip()}\n                          {path[cut:]}\n  -h"
    with patch("session_kit.cli.reference.JSON_DOC", path):
        assert same_everywhere(wrapped) == f"its shapes: {JSON_DOC_SHOWN}\n  -h"
        assert same_everywhere(f"its shapes: {path}\n  -h") == f"its shapes: {JSON_DOC_SHOWN}\n  -h"


def test_the_configuration_page_says_what_scratch_session_takes_as_its_help_does():
    helps = CliRunner().invoke(main, ["scratch", "show", "--help"], terminal_width=500).output
    page = " ".join((REPO / "docs" / "reference" / "configuration.md").read_text(encoding="utf-8").split())
    [said] = re.findall(r"The `scratch` subcommands take `--session \w+` \(([^)]*)\)", page)
    assert "unique id prefix" in said and "unique id prefix" in " ".join(helps.split())

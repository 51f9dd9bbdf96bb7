"""jinja2 is loaded by rendering a view and by nothing else: other commands never pay for it."""

from __future__ import annotations

from session_kit.cli import COMMANDS
from tests.test_layout import loaded_after


def module_of(command: str) -> str:
    return COMMANDS[command].target.partition(":")[0]


def test_building_the_page_model_loads_no_template_engine():
    loaded = loaded_after("import session_kit.view.page, session_kit.view.build, session_kit.api as a; a.view_session")
    assert "jinja2" not in loaded and "markupsafe" not in loaded


def test_the_command_line_and_the_other_commands_load_no_template_engine():
    others = [name for name in COMMANDS if name != "view"]
    loaded = loaded_after(
        "import session_kit.cli\n" + "\n".join(f"import session_kit.cli.commands.{module_of(name)}" for name in others)
    )
    assert "jinja2" not in loaded and "session_kit.view.page" not in loaded


def test_rendering_loads_it():
    assert "jinja2" in loaded_after("import session_kit.view.templates")

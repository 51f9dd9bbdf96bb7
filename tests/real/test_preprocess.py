"""`preprocess` on every real session with a conversation: it is converted (exit 0, one
well-formed XML document, its agents inside), and the person's requests in it (`<user>` with no `kind` or
`kind="command"`) are the truth's, no client or model command among them (an agent's prompt is inside its `<agent>`)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from tests.real.compare import same_start
from tests.real.corpus import KitRun, Truth, has_conversation, params

REQUEST_KINDS = (None, "command")
# The document keeps the IDE's context around what the person typed; the truth's text is without it.
IDE_CONTEXT = re.compile(r"<(ide_[a-z_]+|system-reminder)>.*?</\1>", re.S)


def typed(user: ET.Element) -> str:
    return IDE_CONTEXT.sub("", "".join(user.itertext())).strip()


def document(kit: KitRun, truth: Truth) -> ET.Element:
    code, out, err = kit.run("preprocess", str(truth.path), "--claude-dir", str(truth.root), "--stdout")
    assert code == 0, f"preprocess exited {code}: {err.strip()}"
    return ET.fromstring(out)


@pytest.mark.parametrize("truth", params(has_conversation))
def test_a_session_with_a_request_and_an_answer_is_preprocessed(kit: KitRun, truth: Truth) -> None:
    root = document(kit, truth)
    assert root.tag == "session"
    assert root.find("assistant") is not None or root.find("tool_result") is not None


@pytest.mark.parametrize("truth", params(has_conversation))
def test_the_persons_requests_are_the_truths(kit: KitRun, truth: Truth) -> None:
    requests = [u for u in document(kit, truth).findall("user") if u.get("kind") in REQUEST_KINDS]
    assert len(requests) == truth["requests"], [(u.get("line"), (u.text or "")[:80]) for u in requests]
    first = typed(requests[0]) if requests else None
    assert same_start(first, truth["first_request"]), (first, truth["first_request"])

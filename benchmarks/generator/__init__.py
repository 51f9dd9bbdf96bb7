"""Deterministic generator of large, realistic Claude Code histories for the benchmarks.

Owns: writing a Claude root in the current client dialect (see docs: claude-code-facts) --
`projects/<encoded-cwd>/<session-id>.jsonl`, subagent logs in
`<project>/<session-id>/subagents/agent-<id>.jsonl` with their `agent-<id>.meta.json`,
compaction boundaries, tool results with `toolUseResult`, and the noise entries that make up
about 80% of a real transcript's bytes -- plus a `benchmark-manifest.json` at the root that
says what was written (the big session's id, the planted search words, byte counts).
Does not measure anything (that is `benchmarks/areas/`) and never writes malformed lines.

Speed: every text (tool outputs, listings, prose) is built and JSON-escaped once into pools
at start-up (`pools`); a session is then assembled from `%`-templates with ids and timestamps
substituted (`transcript`), so no `json.dumps` runs per entry. Each session draws from its own
`random.Random(f"{seed}:{index}")` (`sessions`), so the output does not depend on worker count
or order (`root`). `grow` makes a session from a real client's transcript instead.

The names below are what the runner, its areas and the tests use.
"""

from __future__ import annotations

from benchmarks.generator.grow import grow
from benchmarks.generator.pools import Pools
from benchmarks.generator.root import GENERATOR_VERSION, MANIFEST_NAME, Manifest, generate, read_manifest
from benchmarks.generator.sessions import SessionPlan, encode_project_dir, write_session
from benchmarks.generator.words import COMMON_QUERY, RARE_QUERY, START_MS

__all__ = [
    "COMMON_QUERY",
    "GENERATOR_VERSION",
    "MANIFEST_NAME",
    "RARE_QUERY",
    "START_MS",
    "Manifest",
    "Pools",
    "SessionPlan",
    "encode_project_dir",
    "generate",
    "grow",
    "read_manifest",
    "write_session",
]

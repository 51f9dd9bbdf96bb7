"""The kit's questions as tools of a stdio MCP server (`session-kit mcp`), for the model to ask.

Layout: `tools` (the tool table: each tool's name, description for the model, arguments and
their checks; standard library only), `answers` (each tool answered by the core, as the same
JSON document the command's `--json` prints, redacted, and cut into pages with a cursor),
`server` (the MCP SDK's server on stdio: the only module that imports `mcp`, loaded by
`session-kit mcp` alone, never by the hooks or another command).
"""

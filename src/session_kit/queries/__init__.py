"""What the commands ask of a session or of many, each a frozen result with `as_dict`.

- `report` (`show`), `timeline` (`events`), `agent_tree` (`debug-agent`), `plans` (`plan`),
  `card` (`info`), `search` (`search --scan`), `history` (`archive`, `restore`, `search`,
  `export`), `search_engine` (which of the two answers a `search`, over which sessions),
  `doctor` (`doctor`), `drift` (`doctor --transcripts`).

A new question is a new module here, built on `sessions.Session` (one pass, observers run
together) and `transcript`. The choices a command's options lead to (which engine, which
scope, what is an error) are made here, as kit errors; nothing here prints or parses options.
"""

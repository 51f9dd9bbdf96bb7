"""What the commands ask of a session or of many, each a frozen result with `as_dict`.

- `report` (`show`), `timeline` (`events`), `agent_tree` (`debug-agent`), `plans` (`plan`),
  `card` (`info`), `search` (`search`), `doctor` (`doctor`), `drift` (`doctor --transcripts`).

A new question is a new module here, built on `sessions.Session` (one pass, observers run
together) and `transcript`. Nothing here prints or parses options.
"""

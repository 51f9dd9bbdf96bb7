"""Tokens and cost: what sessions, agents and the whole history used.

Owns, module by module:

- `prices`      the bundled, dated price table (`prices.json`) and a user's override; cost
                of a `TokenUsage`, models without a price reported as unknown.
- `breakdown`   one session's usage: the main conversation and each agent (nested agents
                rolled up into their parent), agents without a log from their `Agent` result.
- `history`     the `usage` report over every session (and agent log) of a Claude root, by
                day, week, month, project, session, model or agent, read from the kit's
                index (`index.usage`), so a second run reads only what changed.
- `statusline`  the client's status line: a stdlib-only script, fast because it remembers the
                offset it already counted.
- `filecount`   one file's tokens counted from where the last count stopped: the status
                line's, and the budget per subagent's (a hook: standard library only).
- `spend`       a session's spend for its budget, counted from where the last count stopped
                (the budget per session's hooks: standard library only).

The counting itself (once per API message, last line wins, cache tiers) is
`transcript.tokens`'. Does not print: the CLI does.
"""

"""The ground floor: what both sides stand on, the hooks beside the client and the commands.
Standard library only, cheap to import (a hook's start-up is the budget), and nothing here
imports any other package of the kit. A fact the hooks and the commands both need lives
here once; neither side keeps a lighter copy.

- `fileio`          the kit's file I/O: the one non-blocking open (`open_fd`, regular files
                    only), atomic replace (private, synced unless told), the JSON of its own
                    state files; whether a listing goes into a folder (`walkable`), what a
                    reader skipped, the one text policy for what the kit writes.
- `fastjson`        JSON without importing `json` (and `re`).
- `follow`          the one line follower: a checkpoint that knows the file it was taken
                    of, the whole lines a file gained since, the one BOM rule.
- `detach`          a hook's child that outlives it (long work the client must not wait on).
- `words`           the distinct words of a text (the redactor and the secret guard's screen).
- `encoding`        the project-folder name the client gives a path.
- `layout`          where the client's files sit under a Claude root: the one walk of
                    `projects/` and of a session's folder, a path read as (root, project,
                    session, agent).
- `headfield`       a field read from a file's head (`sessionId`, `cwd`, `slug`), unparsed.
- `tools`           the tools the client offers the model, by the role each plays.
- `vocabulary`      every entry type a client wrote and its class, attachment kinds, hook progress.
- `rawtype`         an entry's top-level type from raw bytes, so noise is never parsed.
- `slash_commands`  whose a slash command is: the client's own, the kit's, the person's.
- `hook_events`     the client's hook events: which the kit registers (always, opt-in).
- `declines`        a tool call the person declined: their decision, never a failure.
- `budget`          what a budget value is (tokens or dollars), and its words.
"""

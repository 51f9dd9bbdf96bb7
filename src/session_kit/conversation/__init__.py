"""The one conversation model under `preprocess` and `view`: a transcript read as items.

- `items`      what a converted entry is, before any output format: the item kinds (a user
               turn, an assistant message, its text, thinking, tool calls and their
               parameters, a tool result, a compaction and its summary, a title line, a client
               note, an entry of a type nobody knows…), each with its role, and the small tree
               they are built as (`Element`, `Omitted`, `Unit`), with the text guarantee every
               output relies on.
- `convert`    one transcript file, line by line, into units (each entry once); texts redacted
               in batches; `SessionReading`: how a session's files are read, for both consumers.
- `elements`   entries as items, with the content steps applied when asked.
- `steps`      what each content step keeps and drops, as pure functions, and the tally.
- `noise`      the lines left once noise (`transcript.vocabulary`) is dropped by raw type, in a
               forked reader on big files.
- `redacting`  redacting a batch of texts beside the conversion.
- `agents`     the session's agent logs (and 1.0.x inline threads) to read, in start order,
               each tied to its spawning call through `sessions.agents`' one linker.

Both consumers read the same items: `preprocess`' XML renderer writes each kind as the element
of the same name (docs/preprocess.md), and `view` turns them into a page by their kinds and
roles. So what is shown, what is noise, what a user text is and which result answers which
call is decided once, here, over the entry vocabulary of `transcript.vocabulary`.

Imports nothing from `preprocess`, `view`, `queries` or `cli`.
"""

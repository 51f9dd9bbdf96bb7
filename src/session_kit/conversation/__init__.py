"""The one conversation model under `preprocess` and `view`: format-neutral items.

- `items`  what a converted entry is, before any output format: the item kinds (a user turn,
           an assistant message, its text, thinking, tool calls and their parameters, a tool
           result, a compaction and its summary, a title line, a client note, an entry of a
           type nobody knows…), each with its role, and the small tree they are built as
           (`Element`, `Omitted`, `Unit`), with the text guarantee every output relies on.

Both consumers read the same items: `preprocess`' XML renderer writes each kind as the element
of the same name (docs/preprocess.md), and `view` turns them into a page by their roles. So
what is shown, what is a note, what a user text is and which result answers which call is
decided once, where the items are built (`preprocess.convert` and `preprocess.elements`, over
the entry vocabulary of `transcript.vocabulary`).

Imports nothing from `preprocess`, `view`, `queries` or `cli`.
"""

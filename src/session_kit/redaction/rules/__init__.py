"""The redactor's rules by family: each module's rules are data (a `Rule` with its pattern,
anchors, and the samples it must and must not redact); `redaction.table` orders them."""

"""The redactor: secrets found in transcript text and replaced by a marker naming their kind.

`rules/` holds the rules by family, as data (each with the samples it must and must not
redact); `table` puts them in the order the engine applies them; `filters` says what stands
in a secret's place or names something that is no secret (placeholders, references, ids,
code); `engine` applies the table to text and is the kit's one policy for showing transcript
text; `screen` is the secret guard's first look, without loading the rules.
"""

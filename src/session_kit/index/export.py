"""The index's tables as JSON Lines (or Parquet, with the optional `parquet` extra).

Owns: writing `sessions`, `texts`, `calls` and `agents` (the `files` table is the index's own
bookkeeping) one file per table into a folder, so many people's and CI runners' histories can
be loaded into an existing engine (DuckDB: `SELECT * FROM read_json_auto('texts.jsonl')`).
Every row gets `source` (a name for this machine or runner, `--source`), so tables of many
sources can be stacked. The columns are documented in docs/reference/json.md ("export"). Does not:
update the index (the caller does first) or print.
"""

from __future__ import annotations

import json
import os
import sqlite3

from session_kit.base import fileio

TABLES = ("sessions", "texts", "calls", "agents")
FORMATS = ("jsonl", "parquet")


def _rows(conn: sqlite3.Connection, table: str, source: str):
    cursor = conn.execute(f"SELECT * FROM {table}")
    columns = ["source", *(d[0] for d in cursor.description)]
    return columns, ((source, *row) for row in cursor)


def export_tables(conn: sqlite3.Connection, folder: str, *, source: str, fmt: str = "jsonl") -> dict[str, int]:
    """Write each table into `folder`; returns the rows written per table."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401 - the optional extra
        except ImportError:
            from session_kit.extras import install_hint

            raise ImportError(f"Parquet needs pyarrow: {install_hint('parquet')} (or use --format jsonl)") from None
    os.makedirs(folder, mode=0o700, exist_ok=True)
    written = {}
    for table in TABLES:
        columns, rows = _rows(conn, table, source)
        path = os.path.join(folder, f"{table}.{fmt}")
        tmp, fd = fileio.create_temp(path)  # 0600: the texts are the transcripts'
        if fmt == "jsonl":
            count = 0
            with open(fd, "w", encoding="utf-8", errors="surrogatepass") as out:
                for row in rows:
                    out.write(json.dumps(dict(zip(columns, row)), ensure_ascii=False) + "\n")
                    count += 1
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            os.close(fd)  # pyarrow writes the file by its name
            data = list(rows)
            count = len(data)
            table_data = pa.table({c: [r[i] for r in data] for i, c in enumerate(columns)})
            pq.write_table(table_data, tmp)
        fileio.replace(tmp, path)
        fileio.remove_stale_temp_files(folder, [os.path.basename(path)])  # a killed earlier export's
        written[table] = count
    return written

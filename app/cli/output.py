"""Shared output helpers for CLI commands: JSON and plain-text tables."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, TextIO

from app.cli import json_text
from app.formatting import table_number


def _default(obj: object) -> object:
    if isinstance(obj, date):
        return obj.isoformat()
    if hasattr(obj, "item"):  # numpy scalars
        return obj.item()
    raise TypeError(f"not JSON serializable: {type(obj).__name__}")


def print_json(data: Any, out: TextIO | None = None) -> None:
    stream = out or sys.stdout
    json_text.dump(data, stream, _default)  # json.dump(data, stream, indent=2, default=..., ensure_ascii=False)
    stream.write("\n")


def format_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    def cell(v: Any) -> str:
        if v is None:
            return "-"
        if isinstance(v, float):
            return table_number(v)
        return str(v)

    table = [[cell(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c), *(len(t[i]) for t in table)]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(t, widths, strict=True)) for t in table]
    return "\n".join(lines)

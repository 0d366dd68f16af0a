"""`refarch schema [scenario|project]`: the JSON Schema of scenario and project files, or the fields' reference page."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from app.cli.errors import CliError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("schema", help="the JSON Schema (draft 2020-12) of scenario or project files, or their"
                                      " fields as a reference page (docs/SCENARIO.md)")
    p.add_argument("which", nargs="?", choices=("scenario", "project"), default="scenario",
                   help="the file the schema describes (default: scenario)")
    p.add_argument("--format", choices=("json", "markdown"), default="json",
                   help="json: the JSON Schema; markdown: the reference page of every field (unit, default, meaning)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of printing")
    p.set_defaults(handler=_run)


def text_of(which: str, fmt: str) -> str:
    if fmt == "markdown":
        from app.cli.scenario_reference import reference_markdown

        return reference_markdown()
    from models.scenario_schema import project_schema, scenario_schema

    schema = project_schema() if which == "project" else scenario_schema()
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def _run(args: argparse.Namespace) -> int:
    text = text_of(args.which, args.format)
    if args.output is None:
        print(text, end="")
        return 0
    from app.export.atomic import atomic_write_text

    try:
        atomic_write_text(Path(args.output), text)
    except OSError as exc:
        raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"wrote {args.output}")
    return 0

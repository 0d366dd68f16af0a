"""`refarch compare A.json B.json [...]`: designs side by side with deltas and the winner per row."""

from __future__ import annotations

import argparse

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError
from app.cli.output import format_table, print_json
from app.cli.scenario_files import read_scenario, size_or_fail


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="compare two or more scenario files side by side")
    p.add_argument("scenarios", nargs="+", help="scenario JSON files")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from models.whatif import CLEAR_DIFFERENCE_PCT, compare

    if len(args.scenarios) < 2:
        raise CliError("compare needs at least two scenario files")
    scenarios = [read_scenario(p) for p in args.scenarios]
    catalog = load_catalog(args.db)
    results = [size_or_fail(s, catalog, p) for s, p in zip(scenarios, args.scenarios, strict=True)]
    rows = compare(results)
    names = [r.scenario_name for r in results]
    if args.format == "json":
        print_json({"scenarios": names, "rows": [r.to_dict() for r in rows],
                    "results": [r.to_dict() for r in results]})
        return 0
    table = []
    for row in rows:
        cells: dict[str, object] = {"metric": f"{row.metric} ({row.unit})"}
        for i, (name, v, d) in enumerate(zip(names, row.values, row.deltas(), strict=True)):
            mark = " *" if row.winner == i else ""
            rng = row.ranges[i]
            text = "-" if v is None else f"{v:,.1f}"
            if rng:
                text += f" [{rng[0]:,.1f}-{rng[1]:,.1f}]"
            if i > 0 and d is not None:
                text += f" ({d:+,.1f})"
            cells[name] = text + mark
        cells["best"] = "-" if row.higher_is_better is None else row.verdict.text(names)
        table.append(cells)
    print(format_table(table, ["metric", *names, "best"]))
    print("\n* wins the row; ranges are P10-P90; deltas are against the first scenario. No option wins when the"
          " options run different workloads, when the P10-P90 ranges overlap, or when values differ by"
          f" {CLEAR_DIFFERENCE_PCT:g} % or less.")
    return 0

"""`refarch compare A.json B.json [...]`: designs side by side with deltas and the winner per row."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError, service_errors
from app.cli.output import format_table, print_json
from app.cli.scenario_files import add_scenario_option, read_inputs
from app.formatting import significant

if TYPE_CHECKING:
    from app.services.compare import CompareRow


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compare", help="compare two or more scenario files side by side")
    p.add_argument("scenarios", nargs="+",
                   help="scenario JSON files or .refarch.json projects (all their scenarios, or --scenario NAME)")
    add_scenario_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.services.compare import clear_difference_pct, compare_rows_by_kind, compare_scenarios, unranked
    from models.vocabulary import kind_label

    inputs = read_inputs(args.scenarios, args.scenario_names)
    if len(inputs) < 2:
        raise CliError("compare needs at least two scenarios (two files, or a project with two or more)")
    catalog = load_catalog(args.db)
    with service_errors():
        results, rows = compare_scenarios([i.scenario for i in inputs], catalog, [i.label for i in inputs])
    names: list[str] = []
    for r in results:  # two projects may hold scenarios of the same name: the columns must differ
        name, n = r.scenario_name, 2
        while name in names:
            name, n = f"{r.scenario_name} ({n})", n + 1
        names.append(name)
    if args.format == "json":
        from app.services.compare import rows_by_kind

        print_json({"scenarios": names, "rows": [r.to_dict() for r in rows],
                    "by_kind": [{"kind": k, "scenarios": [names[i] for i in idx], "rows": [r.to_dict() for r in krows]}
                                for k, idx, krows in rows_by_kind(results)],
                    "results": [r.to_dict() for r in results]})
        return 0
    kinds = compare_rows_by_kind(results)
    for n, (kind, idx, krows) in enumerate(kinds):
        group = [names[i] for i in idx]
        if len(kinds) > 1:  # options of different workloads are not ranked against each other: a table each
            print(("\n" if n else "") + f"{kind_label(kind)}: {', '.join(group)}")
        print(_table(group, krows))
        others = [group[i] for i in unranked([results[i] for i in idx])] if len(idx) > 1 else []
        if others:
            print("Not ranked, sized for other work (data, concurrency or targets) than the others: "
                  + ", ".join(others))
    print("\n* wins the row; ranges are P10-P90; deltas are against the first scenario"
          + (" of the same workload" if len(kinds) > 1 else "") + ". No option wins when the P10-P90 ranges"
          f" overlap or when values differ by {significant(clear_difference_pct())} % or less"
          + ("; options of different workloads are in separate tables and never ranked against each other."
             if len(kinds) > 1 else "."))
    return 0


def _table(names: list[str], rows: list[CompareRow]) -> str:
    table = []
    for row in rows:
        cells: dict[str, object] = {"metric": row.heading}
        for i, name in enumerate(names):
            text, rng, delta = row.text(i), row.range_text(i), row.delta_text(i)
            cells[name] = (text + (f" [{rng}]" if rng else "") + (f" ({delta})" if delta else "")
                           + (" *" if row.winner == i else ""))
        cells["best"] = row.verdict_text(names) if row.scored else "-"
        table.append(cells)
    # one option of its workload: nothing to rank it against, so no "best" column
    return format_table(table, ["metric", *names, "best"] if len(names) > 1 else ["metric", *names])

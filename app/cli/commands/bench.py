"""`refarch bench`: time the models (and later sizing, optimizer, GUI, report) in one run.

Benchmarks register in `app/bench/` (see `app.bench.registry`); this command runs them
all and prints metric -> number, plus the machine they ran on. Times are medians over
repeated runs with `time.perf_counter`. A benchmark that breaks is a bug: the metrics
that worked are printed, the problems go to stderr, exit code 1.
"""

from __future__ import annotations

import argparse
import sys

from app.cli.errors import CliError
from app.cli.output import format_table, print_json


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bench",
        help="measure model prediction and Monte Carlo times (medians over repeated runs)",
        description="Run every registered benchmark once and print its metrics.",
    )
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    p.add_argument("--only", metavar="NAME", action="append", help="run only this benchmark (repeatable), e.g. models")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.bench.registry import discover, registered, run_all  # models load only when a bench runs

    if args.only:
        discover()
        known = sorted(registered())
        unknown = [n for n in args.only if n not in known]
        if unknown:
            raise CliError(
                "unknown benchmark name",
                [f"'{n}': known benchmarks are {', '.join(known)}" for n in unknown],
            )
    report = run_all(args.only)
    if args.format == "json":
        print_json(report.to_dict())
    else:
        rows = [{"metric": k, "value": v} for k, v in sorted(report.metrics.items())]
        print(format_table(rows, ("metric", "value")) if rows else "no metrics")
        m = report.machine
        print(f"\nmachine: {m['cpu_count']} CPUs, Python {m['python']} ({m['platform']}), numpy {m['numpy']}")
        for note in report.notes:
            print(f"note: {note}")
    sys.stdout.flush()
    if report.problems:
        print("refarch: some benchmarks failed (a bug, please report it):", file=sys.stderr)
        for p in report.problems:
            print(f"  - {p}", file=sys.stderr)
        return 1
    return 0

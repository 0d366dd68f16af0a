"""Reading scenario and project files for the CLI: every problem becomes a CliError (exit 2).

Every command that takes scenarios accepts both a scenario file and a `.refarch.json` project
(the file the GUI saves): a project gives all its scenarios, or the ones `--scenario NAME`
picks. The sizing engine is imported inside the functions so that `refarch --help` and
unrelated commands start without loading numpy and the models.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.errors import CliError, service_errors

if TYPE_CHECKING:
    from models.hardware import HardwareCatalog
    from models.scenario import Scenario
    from models.sizing.result import SizingResult


@dataclass(frozen=True)
class Input:
    scenario: Scenario
    label: str  # where it came from, for messages: "a.json" or "p.refarch.json, scenario 'B'"


def add_scenario_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scenario", action="append", metavar="NAME", dest="scenario_names",
                   help="with a .refarch.json project: use only the scenario of this name (repeat for several);"
                        " default: all of the project's scenarios")


def read_scenario(path: str) -> Scenario:
    from models.scenario import ScenarioFileError, load_scenario

    try:
        return load_scenario(Path(path))
    except ScenarioFileError as exc:
        raise CliError(f"invalid scenario {path}", [str(p) for p in exc.problems]) from None


def read_inputs(paths: list[str], names: list[str] | None = None) -> list[Input]:
    """The scenarios of scenario files and projects, in order; `names` picks scenarios of the projects by name."""
    from models.scenario import ScenarioFileError, load_project

    out: list[Input] = []
    projects: list[tuple[str, list[Scenario]]] = []
    for path in paths:
        try:
            project = load_project(Path(path))
        except ScenarioFileError as exc:
            raise CliError(f"invalid scenario or project {path}", [str(p) for p in exc.problems]) from None
        if not project.scenarios:
            raise CliError(f"{path}: the project has no scenarios")
        projects.append((path, project.scenarios))
    wanted = list(dict.fromkeys(names or []))
    found: set[str] = set()
    for path, scenarios in projects:
        several = len(scenarios) > 1
        for s in scenarios:
            if wanted and several and s.name not in wanted:
                continue
            found.add(s.name)
            out.append(Input(s, f"{path}, scenario {s.name!r}" if several else path))
    missing = [n for n in wanted if n not in found]
    if missing:
        available = sorted({s.name for _, ss in projects for s in ss})
        raise CliError("--scenario names no scenario of the given files",
                       [f"{n!r} is not there; the scenarios are: {', '.join(repr(a) for a in available)}"
                        for n in missing])
    return out


def size_or_fail(scenario: Scenario, catalog: HardwareCatalog, path: str) -> SizingResult:
    from app.services.sizing import size

    with service_errors():  # "invalid scenario <path>" and the engine's problems
        return size(scenario, catalog, label=path)


def print_each(outputs: list[Any], emit: Callable[[Any], None], names: list[str] | None = None) -> None:
    """One scenario's output as before; several: a JSON list, or text blocks under each scenario's name."""
    if len(outputs) == 1:
        emit(outputs[0])
        return
    if emit is not print:
        emit(outputs)
        return
    for n, (text, name) in enumerate(zip(outputs, names or [""] * len(outputs), strict=True)):
        if n:
            print()
        if name:
            print(f"== {name} ==")
        print(text)

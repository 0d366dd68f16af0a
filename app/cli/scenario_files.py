"""Reading scenario files for the CLI: every problem becomes a CliError (exit 2).

The sizing engine is imported inside the functions so that `refarch --help` and
unrelated commands start without loading numpy and the models.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.errors import CliError

if TYPE_CHECKING:
    from models.hardware import HardwareCatalog
    from models.scenario import Scenario
    from models.sizing.result import SizingResult


def read_scenario(path: str) -> Scenario:
    from models.scenario import ScenarioFileError, load_scenario

    try:
        return load_scenario(Path(path))
    except ScenarioFileError as exc:
        raise CliError(f"invalid scenario {path}", exc.problems) from None


def size_or_fail(scenario: Scenario, catalog: HardwareCatalog, path: str) -> SizingResult:
    from models.sizing.engine import SizingInputError, size

    try:
        return size(scenario, catalog)
    except SizingInputError as exc:
        raise CliError(f"invalid scenario {path}", exc.problems) from None

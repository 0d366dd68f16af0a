"""The deployment configuration files of one scenario's design (`app.export.config`), for File > Export and
`refarch config`: the folder is checked before sizing, a refused folder or naming pattern is a `ServiceError`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from app.services import sizing
from app.services.errors import ServiceError
from models.hardware import HardwareCatalog
from models.problems import Problem
from models.scenario import Scenario
from models.tasks import IsCancelled, check_cancelled

if TYPE_CHECKING:
    from app.export.config.naming import Naming


def check_folder(folder: Path, force: bool) -> None:
    """Before sizing: a refused folder (a file in the way, not empty without `force`) costs nothing."""
    from app.export.atomic import ExportError
    from app.export.config.writer import check_target

    try:
        check_target(folder, force)
    except ExportError as exc:
        raise ServiceError(str(exc)) from None


def export_config(scenario: Scenario, catalog: HardwareCatalog, folder: Path, *, force: bool = False,
                  naming: Naming | None = None, label: str | None = None,
                  cancelled: IsCancelled | None = None) -> list[Path]:
    """Size the scenario, then write its configuration files into `folder`; the paths written."""
    from app.export.atomic import ExportError
    from app.export.config import NamingError, export_configuration

    check_folder(folder, force)
    result = sizing.size(scenario, catalog, cancelled=cancelled, label=label)
    check_cancelled(cancelled)
    try:
        return export_configuration(result, folder, force, naming, cancelled=cancelled)
    except NamingError as exc:
        raise ServiceError("invalid naming pattern", [Problem("", p) for p in exc.problems]) from None
    except ExportError as exc:
        raise ServiceError(str(exc)) from None
    except OSError as exc:
        raise ServiceError(f"cannot write {folder}", [Problem(str(folder), str(exc))]) from None

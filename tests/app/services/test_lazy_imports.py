"""The use cases load the heavy libraries only inside the functions that need them: importing a service
(as `refarch --help`, `refarch size` and the window's start do) loads no Qt, reportlab, matplotlib or
SQLAlchemy, and not the engine."""

from __future__ import annotations

import subprocess
import sys

import pytest

SERVICES = ["app.services.sizing", "app.services.report", "app.services.compare", "app.services.whatif",
            "app.services.optimize", "app.services.config_export", "app.services.errors",
            "app.services.project_files", "app.services.catalog_source"]
HEAVY = ["PySide6", "reportlab", "matplotlib", "sqlalchemy", "models.sizing.engine"]


@pytest.mark.parametrize("module", SERVICES)
def test_importing_a_service_loads_nothing_heavy(module: str) -> None:
    code = f"import sys, {module}; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"{module} loads {out} at import"

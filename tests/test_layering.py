"""The layout is the design: models/ is pure, catalog/ has no Qt, nothing imports app/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "models": {"PySide6", "sqlalchemy", "alembic", "reportlab", "matplotlib", "catalog", "app"},
    "catalog": {"PySide6", "reportlab", "app"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_does_not_import_forbidden_layers(package: str) -> None:
    offenders = {
        str(p.relative_to(ROOT)): sorted(_imports(p) & FORBIDDEN[package])
        for p in (ROOT / package).rglob("*.py")
        if _imports(p) & FORBIDDEN[package]
    }
    assert offenders == {}


def test_nothing_outside_app_imports_app() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for pkg in ("models", "catalog", "resources")
        for p in (ROOT / pkg).rglob("*.py")
        if "app" in _imports(p)
    ]
    assert offenders == []


def test_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtWidgets import QWidget\nimport sqlalchemy.orm\n")
    assert {"PySide6", "sqlalchemy"} <= _imports(bad)

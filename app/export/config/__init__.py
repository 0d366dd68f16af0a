"""`refarch config`: the configuration an engineer applies, rendered from a sized design.

`build_config(result, naming)` renders every file in memory (a `ConfigBundle`); `write_bundle`
writes it atomically. Nothing here sizes anything: values come from the design (`Design.settings`,
the host and VM layout) and from the static settings with provenance in `resources/deploy/`.
Names load on first use (PEP 562) so `refarch --help` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.export.config.build import build_config
    from app.export.config.bundle import ConfigBundle, ConfigFile
    from app.export.config.naming import Naming, NamingError, parse_naming
    from app.export.config.usecase import export_configuration
    from app.export.config.writer import write_bundle

_WHERE = {
    "build_config": "app.export.config.build",
    "ConfigBundle": "app.export.config.bundle",
    "ConfigFile": "app.export.config.bundle",
    "Naming": "app.export.config.naming",
    "NamingError": "app.export.config.naming",
    "parse_naming": "app.export.config.naming",
    "write_bundle": "app.export.config.writer",
    "export_configuration": "app.export.config.usecase",
}

__all__ = ["ConfigBundle", "ConfigFile", "Naming", "NamingError", "build_config", "export_configuration",
           "parse_naming", "write_bundle"]


if not TYPE_CHECKING:  # mypy reads the names above; an unknown name is an error to it, not Any

    def __getattr__(name: str) -> Any:
        if name in _WHERE:
            return getattr(importlib.import_module(_WHERE[name]), name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

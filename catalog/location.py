"""Where the catalog lives by default, without importing a database library (start-up of every command)."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

ENV_VAR = "REFARCH_DB"
DEFAULT_FILE = "catalog.sqlite"


def default_url() -> str:
    """`$REFARCH_DB`, else a SQLite file in the user's data directory (created if missing)."""
    from_env = os.environ.get(ENV_VAR, "").strip()
    if from_env:
        return from_env
    directory = Path(user_data_dir("refarch", appauthor=False))
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / DEFAULT_FILE}"

"""Where an on-disk cache lives: a configured folder, else an environment variable, else nowhere.

The fit cache (`models.fit_cache`) and the catalog snapshot cache (`catalog.snapshot_cache`)
share this rule, so a test or the app configures both the same way.

>>> import os
>>> location = CacheLocation("REFARCH_DOCTEST_CACHE")
>>> os.environ.pop("REFARCH_DOCTEST_CACHE", None)
>>> location.directory() is None
True
>>> os.environ["REFARCH_DOCTEST_CACHE"] = "/tmp/from-env"
>>> str(location.directory())
'/tmp/from-env'
>>> location.configure("/tmp/configured")
>>> str(location.directory())
'/tmp/configured'
>>> location.configure(None)
>>> str(location.directory())
'/tmp/from-env'
>>> del os.environ["REFARCH_DOCTEST_CACHE"]
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass
class CacheLocation:
    """A cache folder chosen by `configure`, else by the environment variable `env_var`."""

    env_var: str
    configured: Path | None = None

    def configure(self, directory: Path | str | None) -> None:
        self.configured = Path(directory) if directory is not None else None

    def directory(self) -> Path | None:
        if self.configured is not None:
            return self.configured
        env = os.environ.get(self.env_var)
        return Path(env) if env else None

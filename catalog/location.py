"""Where the catalog lives by default, without importing a database library (start-up of every command)."""

from __future__ import annotations

import os
import re
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


# Query parameters and key=value settings that carry a secret (libpq's password and sslpassword, and the usual
# token names): masked wherever a URL or a connection string is shown, logged or written.
SECRET_KEYS = ("password", "passwd", "pwd", "pass", "sslpassword", "secret", "token", "access_token", "api_key",
               "apikey")
_SECRET_SETTING = re.compile(r"(?i)(?<![A-Za-z0-9_])([A-Za-z0-9_]*(?:" + "|".join(SECRET_KEYS) + r"))(\s*=\s*)"
                             r"('[^']*'|[^&\s'\";,]+?)(?=[&\s'\";,]|:\s|:$|$)")  # a ": " after it is the message's
# scheme://user:password@ (the password may hold ':' or '@': the user info ends at the last '@' before the host)
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s:/@'\"]*):([^\s'\"]*)@(?=[^\s@'\"]*(?:[\s'\"]|$))")


def mask_secrets(text: str) -> str:
    """`text` with every password in it masked: a URL's user info (`user:***@host`), a `?password=` or
    `&sslpassword=` query parameter, a libpq `password=...` setting and an environment assignment such as
    `PGPASSWORD=...`.

    >>> mask_secrets("postgresql://u:p@ss@db/x?sslmode=require&password=s3cret and password = 'a b' PGPASSWORD=x")
    'postgresql://u:***@db/x?sslmode=require&password=*** and password = *** PGPASSWORD=***'
    >>> mask_secrets("cannot open the catalog at postgresql://db/x?password=p:w: connection refused")
    'cannot open the catalog at postgresql://db/x?password=***: connection refused'
    """
    masked = _USERINFO.sub(lambda m: f"{m.group(1)}:***@", text)
    return _SECRET_SETTING.sub(lambda m: f"{m.group(1)}{m.group(2)}***", masked)

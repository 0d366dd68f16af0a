"""Passwords never shown: every URL shape (user info, ?password=, &sslpassword=, a libpq setting, the environment)
masked in the store's messages and in what the CLI prints."""

from __future__ import annotations

import pytest

from app.cli.main import main
from catalog.engine import describe_db_error, mask_url, parse_url
from catalog.errors import CatalogOpenError
from catalog.location import mask_secrets
from catalog.store import CatalogStore

SECRET = "s3cr3t-Pw"
URLS = [
    f"postgresql://refarch:{SECRET}@127.0.0.1:1/catalog",
    f"postgresql://refarch@127.0.0.1:1/catalog?password={SECRET}",  # the tester's case: printed in clear
    f"postgresql://refarch@127.0.0.1:1/catalog?sslmode=disable&sslpassword={SECRET}",
    f"postgresql://refarch@127.0.0.1:1/catalog?PASSWORD={SECRET}&connect_timeout=2",
    f"postgresql://refarch:{SECRET}@[::1:1/catalog",  # not even a URL
]


@pytest.mark.parametrize("url", URLS)
def test_the_store_s_messages_mask_every_url_shape(url: str) -> None:
    assert SECRET not in mask_url(url)
    with pytest.raises(CatalogOpenError) as caught:
        CatalogStore.open(url)
    assert SECRET not in str(caught.value) and "***" in str(caught.value)


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("via", ["--db", "environment"])
def test_the_cli_never_prints_a_password(url: str, via: str, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    if via == "environment":
        monkeypatch.setenv("REFARCH_DB", url)
        code = main(["catalog", "list"])
    else:
        code = main(["--db", url, "catalog", "list"])
    out, err = capsys.readouterr()
    assert code == 2 and SECRET not in out + err and "***" in err


def test_a_database_s_own_message_is_masked_too() -> None:
    url = parse_url(f"postgresql://refarch@db/catalog?password={SECRET}")
    text = describe_db_error(RuntimeError(f"invalid dsn: host=db password={SECRET} dbname=catalog"), url)
    assert SECRET not in text and "password=***" in text
    assert mask_secrets(f"PGPASSWORD={SECRET} refarch") == "PGPASSWORD=*** refarch"


def test_masking_keeps_the_message_around_the_url() -> None:
    url = f"postgresql://refarch@db/x?password={SECRET}"
    line = f"refarch: cannot open the catalog at {mask_url(url)}: connection refused"
    assert mask_secrets(line) == line  # masking twice changes nothing and keeps the ': '
    assert mask_secrets(f"at {url}: refused") == "at postgresql://refarch@db/x?password=***: refused"

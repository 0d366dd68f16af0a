"""The settings a sizing result carries, read in one place for every renderer.

`Design.settings` holds them (models/sizing/settings.py). A setting a renderer needs that the
design does not carry is reported as missing, never filled in here.
"""

from __future__ import annotations

from app.export.config.static_data import deploy_data
from models.sizing.result import SizingResult
from models.sizing.settings import Setting, SettingGroup


def setting_groups(result: SizingResult, product: str) -> list[SettingGroup]:
    return [g for g in result.design.settings if g.product == product]


def cluster_setting(result: SizingResult, product: str, name: str) -> Setting | None:
    for g in setting_groups(result, product):
        s = g.get(name) or g.get("-" + name)
        if s is not None:
            return s
    return None


def switch_name(setting: Setting) -> str:
    """SAP IQ switches are stated with or without their dash: `-iqmc` and `iqmc` are the same."""
    return setting.name.lstrip("-")


def fmt_value(value: object) -> str:
    """Numbers as the products read them: integers without a decimal point, floats without noise.

    >>> fmt_value(3072), fmt_value(1.1), fmt_value(2.0), fmt_value(True)
    ('3072', '1.1', '2', 'on')
    """
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def release(result: SizingResult) -> str:
    """The Greenplum release a design is configured for; Greenplum 6 (the default) when it states none."""
    return result.design.greenplum_version or "6"


def coordinator_word(result: SizingResult) -> str:
    """What the release's documentation calls the coordinator: 'master' on Greenplum 6, 'coordinator' from 7 on."""
    return str(deploy_data("greenplum")["releases"][release(result)].get("coordinator_word", "coordinator"))

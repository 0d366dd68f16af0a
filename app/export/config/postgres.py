"""PostgreSQL: one conf.d include per VM and the same values as ALTER SYSTEM statements."""

from __future__ import annotations

import re

from app.export.config.bundle import ConfigBundle, comment, header
from app.export.config.design_values import fmt_value, setting_groups
from app.export.config.naming import Naming, slug, unique
from models.sizing.result import SizingResult
from models.sizing.settings import Setting

_BARE = re.compile(r"^-?\d+(\.\d+)?$")
INCLUDE_DOC = "PostgreSQL documentation, 20.1.5 Managing Configuration File Contents (include_dir)"


def conf_value(s: Setting) -> str:
    """The value as postgresql.conf reads it: numbers bare, a unit or any text quoted.

    >>> conf_value(Setting("shared_buffers", 3072, "MB", "", ""))
    "'3072MB'"
    >>> conf_value(Setting("max_connections", 100, "", "", ""))
    '100'
    >>> conf_value(Setting("huge_pages", "try", "", "", ""))
    "'try'"
    """
    text = fmt_value(s.value) + s.unit
    if not s.unit and _BARE.match(text):
        return text
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def vm_names(result: SizingResult, naming: Naming) -> dict[str, str]:
    """Design VM name -> the name the user's pattern gives it."""
    groups = setting_groups(result, "postgresql")
    names = {g.target: naming.render("pg_vm", name=slug(g.target), n=i) for i, g in enumerate(groups, start=1)}
    unique(list(names.values()), "pg_vm")
    return names


def postgresql_conf(result: SizingResult, vm: str, settings: tuple[Setting, ...]) -> str:
    lines = header(f"{vm}.conf: PostgreSQL settings of VM {vm} (put in the data directory's conf.d/ and add"
                   " include_dir = 'conf.d' to postgresql.conf, then restart)", result.scenario_name)
    lines += comment("Read after postgresql.conf, so these values win over the defaults.", INCLUDE_DOC)
    for s in settings:
        lines += [*comment(s.reason, s.source), f"{s.name} = {conf_value(s)}"]
    return "\n".join(lines)


def alter_system_sql(result: SizingResult, vm: str, settings: tuple[Setting, ...]) -> str:
    lines = header(f"{vm}.alter_system.sql: the same settings as ALTER SYSTEM (psql -f as a superuser, then"
                   " restart)", result.scenario_name, "--")
    lines += comment("ALTER SYSTEM writes postgresql.auto.conf, which is read last.",
                     "PostgreSQL documentation, ALTER SYSTEM", "--")
    for s in settings:
        lines += [*comment(s.reason, s.source, "--"), f"ALTER SYSTEM SET {s.name} = {conf_value(s)};"]
    return "\n".join(lines)


def add_postgres(bundle: ConfigBundle, result: SizingResult, naming: Naming) -> None:
    names = vm_names(result, naming)
    for g in setting_groups(result, "postgresql"):
        vm = names[g.target]
        bundle.add(f"postgresql/{vm}.conf", postgresql_conf(result, vm, g.settings),
                   f"postgresql.conf include for VM {vm}")
        bundle.add(f"postgresql/{vm}.alter_system.sql", alter_system_sql(result, vm, g.settings),
                   f"ALTER SYSTEM statements for VM {vm}")

"""Host, VM and directory names the user can set as patterns (`--name segment_host=gp-seg{n:02d}`).

Patterns are Python format strings over a fixed set of placeholders per key; a pattern with an
unknown placeholder, or one that makes two hosts share a name, is refused with the key named.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from dataclasses import dataclass, field, fields, replace

# placeholders each pattern may use, and what they are
PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    "physical_host": ("host",),  # vSphere host (ESXi) number, 1-based
    "segment_host": ("n", "host", "vm"),  # Greenplum segment host or segment VM: n-th in host-file order
    "coordinator_host": (),
    "standby_coordinator_host": (),
    "interface": ("hostname", "i"),  # the i-th interface address of a host (study 002: several per host)
    "data_mount": ("d",),  # the d-th data volume of a host or VM
    "primary_dir": ("mount",),
    "mirror_dir": ("mount",),
    "coordinator_dir": (),
    "seg_prefix": (),
    "pg_vm": ("name", "n"),  # PostgreSQL VM: the design's VM name, its number
    "iq_node": ("n",),  # SAP IQ multiplex node
}
HOSTNAME_KEYS = ("physical_host", "segment_host", "coordinator_host", "standby_coordinator_host", "interface",
                 "pg_vm", "iq_node")
PATH_KEYS = ("data_mount", "primary_dir", "mirror_dir", "coordinator_dir")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_RE = re.compile(rf"^{_LABEL}(?:\.{_LABEL})*$")
_PATH_RE = re.compile(r"^/[A-Za-z0-9._/-]*$")
_PREFIX_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,30}$")


class NamingError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class Naming:
    physical_host: str = "esx{host}"
    segment_host: str = "sdw{n}"
    coordinator_host: str = "cdw"
    standby_coordinator_host: str = "scdw"
    interface: str = "{hostname}-{i}"
    data_mount: str = "/data{d}"
    primary_dir: str = "{mount}/primary"
    mirror_dir: str = "{mount}/mirror"
    coordinator_dir: str = "/data/coordinator"
    seg_prefix: str = "gpseg"
    pg_vm: str = "{name}"
    iq_node: str = "iq{n}"
    explicit: frozenset[str] = field(default=frozenset(), compare=False)  # the keys the user set (`parse_naming`)

    def __post_init__(self) -> None:
        problems = []
        for f in fields(self):
            if f.name == "explicit":
                continue
            pattern = getattr(self, f.name)
            allowed = PLACEHOLDERS[f.name]
            try:
                used = {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(pattern) if name}
            except ValueError as exc:
                problems.append(f"name.{f.name}: {pattern!r} is not a valid pattern ({exc})")
                continue
            unknown = sorted(used - set(allowed))
            if unknown:
                problems.append(
                    f"name.{f.name}: unknown placeholder(s) {', '.join('{' + u + '}' for u in unknown)}; allowed: "
                    + (", ".join("{" + a + "}" for a in allowed) or "none")
                )
        if problems:
            raise NamingError(problems)

    def render(self, key: str, **values: object) -> str:
        pattern: str = getattr(self, key)
        try:
            out = pattern.format(**values)
        except (ValueError, KeyError, IndexError) as exc:
            raise NamingError([f"name.{key}: {pattern!r} cannot be filled ({exc})"]) from None
        if key in HOSTNAME_KEYS and not _HOST_RE.match(out):
            raise NamingError([f"name.{key}: {out!r} is not a valid host name (letters, digits, '-', '.')"])
        if key in PATH_KEYS and not _PATH_RE.match(out):
            raise NamingError([f"name.{key}: {out!r} must be an absolute path of letters, digits, '.', '_', '-'"])
        if key == "seg_prefix" and not _PREFIX_RE.match(out):
            raise NamingError([f"name.{key}: {out!r} must be a letter then letters, digits or '_'"])
        return out


def slug(text: str) -> str:
    """A free-text name (a database's) made fit for a host name.

    >>> slug("Sales DB (EU)/2")
    'sales-db-eu-2'
    """
    out = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return out[:50].strip("-") or "x"


def parse_naming(items: list[str]) -> Naming:
    """`KEY=PATTERN` items (the CLI's repeated `--name`) over the defaults."""
    changes: dict[str, str] = {}
    problems: list[str] = []
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep:
            problems.append(f"--name {item!r}: expected KEY=PATTERN")
        elif key not in PLACEHOLDERS:
            problems.append(f"--name {key!r}: unknown key; known: {', '.join(PLACEHOLDERS)}")
        else:
            changes[key] = value.strip()
    if problems:
        raise NamingError(problems)
    return replace(Naming(), **changes, explicit=frozenset(changes))


def for_release(naming: Naming, names: dict[str, str]) -> Naming:
    """`naming` with the release's own defaults (`names`: key -> pattern, e.g. Greenplum 6's mdw and /data/master)
    for every key the user did not set.

    >>> n = for_release(parse_naming(["coordinator_host=gpm1"]), {"coordinator_host": "mdw", "coordinator_dir": "/m"})
    >>> n.coordinator_host, n.coordinator_dir, n.standby_coordinator_host
    ('gpm1', '/m', 'scdw')
    """
    kept: dict[str, str] = {k: v for k, v in names.items() if k not in naming.explicit and k in PLACEHOLDERS}
    out = naming
    for key, pattern in kept.items():
        out = replace(out, **{key: pattern})  # type: ignore[arg-type]  # a str field: `key` is one of PLACEHOLDERS
    return out


def unique(names: list[str], key: str) -> list[str]:
    """Refuse a pattern that gives two hosts the same name (e.g. a segment_host pattern without {n}); the first
    repeated name in sorted order is named.

    >>> unique(["sdw1", "sdw2"], "segment_host")
    ['sdw1', 'sdw2']
    >>> unique(["sdw", "b", "sdw", "b", "c"], "segment_host")
    Traceback (most recent call last):
    ...
    app.export.config.naming.NamingError: name.segment_host: the pattern gives several hosts the name 'b'; use {n}
    """
    dupes = sorted(n for n, count in Counter(names).items() if count > 1)
    if dupes:
        raise NamingError([f"name.{key}: the pattern gives several hosts the name {dupes[0]!r}; use {{n}}"])
    return names

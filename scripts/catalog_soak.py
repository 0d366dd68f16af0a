"""Concurrent soak of a shared catalog: editors, quote imports and reverts at once; nothing lost, the history adds up.

    python scripts/catalog_soak.py --seconds 300                 # SQLite, and PostgreSQL if REFARCH_TEST_PG_URL is set
    python scripts/catalog_soak.py --seconds 300 --pg URL        # PostgreSQL at URL (a fresh schema, dropped after)

Per backend, real processes run for the given time against one catalog of NICs:

- editors make versioned spec edits (watts + 1 on a random part, read-modify-write, retried on a conflict);
- quoters apply vendor quotes (CSV, 1-3 random parts, prices within 10 % of the current ones);
- reverters revert a random quote that is not reverted yet (refused when a row changed since: counted).

Then it checks: every part's watts is its first value plus the edits the editors saw succeed (no edit reverted by a
quote or a revert); each part's history is one chain (every change's "before" is the previous change's "after",
the last "after" is the row now, the first is the import that added it); the history holds exactly the edits,
quotes and reverts the workers made, and every reverted quote names its revert. Exit 0 when all hold, 1 otherwise.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
from collections import Counter
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from catalog.errors import CatalogWriteError, EditConflictError, InvalidRowsError  # noqa: E402
from catalog.store import CatalogStore  # noqa: E402
from models.hardware import Nic  # noqa: E402

PARTS = [f"soak-nic-{i:02d}" for i in range(12)]
START_WATTS = 10.0


def _rows() -> list[dict[str, Any]]:
    return [{"id": pid, "kind": "nic", "vendor": "Acme", "model": f"Soak {pid}", "price": 500 + 10 * i,
             "currency": "USD", "price_as_of": "2026-01-05", "source": "soak fixture", "ports": 2,
             "speed_gbps": 25, "watts": START_WATTS} for i, pid in enumerate(PARTS)]


# -- workers (run as separate processes) -------------------------------------------------------------------------

def edit(store: CatalogStore, rng: random.Random, stats: dict[str, Any]) -> None:
    part_id = rng.choice(PARTS)
    while True:
        read = store.get_versioned(part_id)
        assert isinstance(read.part, Nic)
        try:
            store.update(replace(read.part, watts=read.part.watts + 1), read.version)
            stats["edits"][part_id] = stats["edits"].get(part_id, 0) + 1
            return
        except EditConflictError:
            stats["conflicts"] += 1


def quote(store: CatalogStore, rng: random.Random, stats: dict[str, Any], folder: Path) -> None:
    chosen = rng.sample(PARTS, rng.randint(1, 3))
    lines = [f"{pid},{store.get(pid).price * rng.uniform(0.9, 1.1):.2f},USD" for pid in chosen]
    path = folder / f"quote-{os.getpid()}-{stats['quotes']}.csv"
    path.write_text("Part Number,Unit Price,Currency\n" + "\n".join(lines) + "\n", encoding="utf-8")
    store.apply_quote(path, date.today())
    stats["quotes"] += 1


def revert(store: CatalogStore, rng: random.Random, stats: dict[str, Any]) -> None:
    open_quotes = [s for s in store.change_sets(limit=30) if s.action == "quote" and s.reverted_by is None]
    if not open_quotes:
        time.sleep(0.05)
        return
    target = rng.choice(open_quotes)
    try:
        store.revert(target.id)
        stats["reverts"] += 1
    except InvalidRowsError:  # a row of the quote changed since: refused, nothing written
        stats["revert_refused"] += 1
    except CatalogWriteError as exc:
        if "reverted already" not in str(exc):
            raise
        stats["revert_refused"] += 1


def worker(role: str, url: str, seconds: float, seed: int, folder: Path) -> int:
    os.environ["REFARCH_USER"] = f"{role}-{os.getpid()}"
    rng = random.Random(seed)
    stats: dict[str, Any] = {"role": role, "edits": {}, "conflicts": 0, "quotes": 0, "reverts": 0,
                             "revert_refused": 0}
    with CatalogStore.open(url, seed=False) as store:
        # the clock starts once the store is open (on a loaded machine opening can take longer than a short run),
        # and every worker makes at least one change, so a short run always has something to check
        deadline = time.monotonic() + seconds
        first = True
        while first or time.monotonic() < deadline:
            first = False
            if role == "editor":
                edit(store, rng, stats)
            elif role == "quoter":
                quote(store, rng, stats, folder)
            else:
                revert(store, rng, stats)
    print(json.dumps(stats))
    return 0


# -- the run and its checks --------------------------------------------------------------------------------------

def run(url: str, seconds: float, editors: int, quoters: int, reverters: int) -> list[str]:
    """One backend: start the workers, wait, check; the problems found (empty: nothing lost)."""
    with CatalogStore.open(url, seed=False) as store:
        store.import_rows(_rows(), source="soak fixture")
    roles = ["editor"] * editors + ["quoter"] * quoters + ["reverter"] * reverters
    with tempfile.TemporaryDirectory() as folder:
        procs = [subprocess.Popen([sys.executable, __file__, "worker", role, url, str(seconds), str(i), folder],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
                 for i, role in enumerate(roles)]
        results = [p.communicate(timeout=seconds + 300) for p in procs]
    problems = [f"{role} exited {p.returncode}: {err.strip()[-2000:]}"
                for role, p, (_, err) in zip(roles, procs, results, strict=True) if p.returncode != 0]
    if problems:
        return problems
    stats = [json.loads(out) for out, _ in results]
    with CatalogStore.open(url, seed=False) as store:
        problems = check(store, stats)
        totals = summary(stats)
    print(f"{url.split('://')[0]}: {totals}; {'nothing lost, history adds up' if not problems else 'PROBLEMS'}")
    return problems


def summary(stats: list[dict[str, Any]]) -> str:
    edits = sum(sum(s["edits"].values()) for s in stats)
    return (f"{edits} edits ({sum(s['conflicts'] for s in stats)} conflicts retried), "
            f"{sum(s['quotes'] for s in stats)} quotes, {sum(s['reverts'] for s in stats)} reverts "
            f"({sum(s['revert_refused'] for s in stats)} refused)")


def check(store: CatalogStore, stats: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    edits: Counter[str] = Counter()
    for s in stats:
        edits.update(s["edits"])
    rows = {r["id"]: r for r in store.export_rows("nic")}
    recorded_edits: Counter[str] = Counter()
    for pid in PARTS:
        if rows[pid]["watts"] != START_WATTS + edits[pid]:
            problems.append(f"{pid}: watts {rows[pid]['watts']}, expected {START_WATTS + edits[pid]} "
                            f"({edits[pid]} edits made): {START_WATTS + edits[pid] - rows[pid]['watts']:g} lost")
        chain = list(reversed(store.history_of(pid, limit=None)))
        if not chain or chain[0].before is not None or chain[0].change_set.action != "import":
            problems.append(f"{pid}: the history does not start with the import that added it")
        for previous, change in itertools.pairwise(chain):
            if change.before != previous.after:
                problems.append(f"{pid}: change {change.change_set.id} starts from other fields than change "
                                f"{previous.change_set.id} left")
        if chain and chain[-1].after is not None and any(rows[pid].get(k) != v for k, v in chain[-1].after.items()):
            problems.append(f"{pid}: the row differs from what its last recorded change left")
        recorded_edits[pid] = sum(1 for c in chain if c.change_set.action == "edit")
    if recorded_edits != edits:
        problems.append(f"the history records {sum(recorded_edits.values())} edits; the editors made "
                        f"{sum(edits.values())}")
    sets = store.change_sets(limit=None)
    by_action = Counter(s.action for s in sets)
    for action, key in (("quote", "quotes"), ("revert", "reverts")):
        made = sum(s[key] for s in stats)
        if by_action[action] != made:
            problems.append(f"the history records {by_action[action]} {action}s; the workers made {made}")
    by_id = {s.id: s for s in sets}
    for s in sets:
        if s.reverted_by is not None and by_id.get(s.reverted_by, s).reverts != s.id:
            problems.append(f"change {s.id} says it was reverted by {s.reverted_by}, which does not say so")
    return problems


def _pg_schema(admin_url: str) -> tuple[str, Any, str]:
    from sqlalchemy import create_engine, text

    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    schema = f"soak_{uuid.uuid4().hex[:10]}"
    with engine.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = engine.url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    return url, engine, schema


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["worker"]:
        role, url, seconds, seed, folder = args[1:6]
        try:
            return worker(role, url, float(seconds), int(seed), Path(folder))
        except Exception:
            traceback.print_exc()
            return 1
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--editors", type=int, default=3)
    parser.add_argument("--quoters", type=int, default=2)
    parser.add_argument("--reverters", type=int, default=1)
    parser.add_argument("--sqlite", type=Path, help="the SQLite file (default: a temporary one)")
    parser.add_argument("--pg", default=os.environ.get("REFARCH_TEST_PG_URL"),
                        help="PostgreSQL URL (default: $REFARCH_TEST_PG_URL; none: SQLite only)")
    parser.add_argument("--no-sqlite", action="store_true")
    opts = parser.parse_args(args)
    problems: list[str] = []
    if not opts.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            path = opts.sqlite or Path(tmp) / "soak.sqlite"
            problems += run(f"sqlite:///{path}", opts.seconds, opts.editors, opts.quoters, opts.reverters)
    if opts.pg:
        from sqlalchemy import text

        url, engine, schema = _pg_schema(opts.pg)
        try:
            problems += run(url, opts.seconds, opts.editors, opts.quoters, opts.reverters)
        finally:
            with engine.connect() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            engine.dispose()
    for p in problems:
        print(f"PROBLEM: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

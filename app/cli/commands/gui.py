"""`refarch gui`: open the desktop window."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gui", help="open the desktop window (the default with no command)")
    p.add_argument("project", nargs="?", help="a .refarch.json project to open")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.gui.launch import launch  # Qt is imported only when the window is wanted

    return launch(db_url=args.db, project=args.project, screenshot=args.screenshot)

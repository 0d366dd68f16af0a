"""`refarch gui`: open the desktop window, or render it to a PNG (`--screenshot`) and exit."""

from __future__ import annotations

import argparse

from app.cli.errors import CliError

VIEWS = ("main", "compare", "catalog", "sensitivity")  # sensitivity: main, its tornado computed and shown


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("gui", help="open the desktop window (the default with no command)")
    p.add_argument("project", nargs="?", help="a .refarch.json project to open (default: the sample project)")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the window with its results to a PNG and exit")
    p.add_argument("--view", choices=VIEWS, default="main", help="the view to show (default: main)")
    p.add_argument("--size", default="1400x900", metavar="WxH", help="window size of a screenshot (default 1400x900)")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.gui.launch import LaunchError, launch  # Qt is imported only when the window is wanted

    if args.screenshot and args.project:
        from pathlib import Path

        from models.scenario import ScenarioFileError, load_project

        try:  # fail like every other command on a bad file, instead of rendering an error dialog
            load_project(Path(args.project))
        except ScenarioFileError as exc:
            raise CliError(f"cannot open {args.project}", [str(p) for p in exc.problems]) from None
    try:
        w, _, h = args.size.lower().partition("x")
        size = (int(w), int(h))
        if not (320 <= size[0] <= 8000 and 240 <= size[1] <= 8000):
            raise ValueError
    except ValueError:
        raise CliError(f"--size must be WIDTHxHEIGHT between 320x240 and 8000x8000 (got {args.size!r})") from None
    try:
        return launch(db_url=args.db, project=args.project, screenshot=args.screenshot, view=args.view, size=size)
    except LaunchError as exc:
        raise CliError(str(exc)) from None

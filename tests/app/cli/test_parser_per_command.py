"""`main` builds the parser of the named command only (`build_parser(command)`): the same help, usage and
errors as the full parser, and a name no command registers gets the full parser, which reports it."""

from __future__ import annotations

import argparse

import pytest

from app.cli import main as cli_main


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


FULL = _commands(cli_main.build_parser())


@pytest.mark.parametrize("name", sorted(FULL))
def test_one_command_parser_has_that_command_with_the_same_help(name: str) -> None:
    only = _commands(cli_main.build_parser(name))
    assert list(only) == [name]
    assert only[name].format_help() == FULL[name].format_help()
    assert only[name].format_usage() == FULL[name].format_usage()


def test_an_unknown_command_gets_the_full_parser_and_its_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert sorted(_commands(cli_main.build_parser("no-such-command"))) == sorted(FULL)
    with pytest.raises(SystemExit):
        cli_main.main(["no-such-command"])
    err = capsys.readouterr().err
    assert "invalid choice: 'no-such-command'" in err and "choose from" in err


@pytest.mark.parametrize("argv", [["size"], ["size", "a.json", "--format", "xml"], ["size", "a.json", "--bogus"],
                                  ["--db", "sqlite:///x.db", "compare"], ["fit-usl"]])
def test_errors_read_as_with_the_full_parser(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    def error_of(parser: argparse.ArgumentParser) -> str:
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(argv)
        assert exit_info.value.code == 2
        return capsys.readouterr().err

    assert error_of(cli_main.build_parser(cli_main.command_named(argv))) == error_of(cli_main.build_parser())

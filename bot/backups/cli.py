"""What ``python -m bot.backup`` and ``python -m bot.restore`` share: their one file argument,
the configured database, and how a PostgreSQL command line is shown."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.records.errors import ConfigError
from bot.store.database_settings import load_database_settings
from bot.store.database_url import DatabaseUrl

PASSWORD_NOTE = "(the password is left out: give it with PGPASSWORD or ~/.pgpass)"


def file_and_database(prog: str, doc: str, name: str, help_text: str,
                      argv: Sequence[str] | None) -> tuple[str, DatabaseUrl] | int:
    """The file argument ``name`` and the configured database, or exit code 2 (said on
    stderr) when the settings are unusable."""
    parser = argparse.ArgumentParser(prog=prog, description=doc.split("\n")[0])
    parser.add_argument(name, help=help_text)
    args = parser.parse_args(argv)
    try:
        database = load_database_settings().database
    except ConfigError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 2
    return str(getattr(args, name)), database


def print_command(intro: str, line: str, hidden: bool) -> None:
    """A PostgreSQL tool's command line for the operator to run (the password left out)."""
    print(intro)
    print(line)
    if hidden:
        print(PASSWORD_NOTE)

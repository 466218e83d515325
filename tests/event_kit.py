"""Events the web station's tests run on."""

from pathlib import Path

from rules.events.competition import Competition


def rummikub_day(folder: Path, players: list[str]) -> str:
    """A new Rummikub day (rotating tables, the default settings) with ``players``
    registered, in ``folder``/cup.db; its path."""
    where = str(folder / "cup.db")
    Competition.create(where, "rummikub", None, {}, [{"name": p} for p in players],
                       "test").close()
    return where

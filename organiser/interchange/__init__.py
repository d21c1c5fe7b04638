"""The JSON interchange format `rummikub-tournament/1` (SPEC §9): export and import.

Import validates the whole file first (`parse`, with the checks of `checks`) and reports the
first problem with its JSON path (e.g. ``rounds[1].tables[0].games[2].racks.B.tiles: must be
0–728, got -3``); only a valid file is written, in one transaction (`load`). Export → import →
export gives identical bytes (`export`).
"""

from organiser.interchange.checks import InterchangeError, decode
from organiser.interchange.export import dumps, export_tournament
from organiser.interchange.load import import_json_text, import_tournament
from organiser.interchange.parse import FORMAT, parse

__all__ = [
    "FORMAT",
    "InterchangeError",
    "decode",
    "dumps",
    "export_tournament",
    "import_json_text",
    "import_tournament",
    "parse",
]

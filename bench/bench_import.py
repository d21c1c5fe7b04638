"""Benchmark: the imports' cost on large and hostile input.

1. The JSON import's validation (`organiser.interchange.parse`, no database) of 10,000 and
   50,000 players. Budget: 50,000 players validated in < 5 s.
2. Player files (`organiser.importers.read_player_file`) that unpack to millions of cells:
   each is read in a fresh process, which prints its time and peak memory. Budget: any file
   under the 2 MB upload limit is refused or read in < 2 s and < 200 MB more memory.

`--smoke` runs the smallest settings in a few seconds. Budget verdicts are printed, never
asserted: the figures depend on the machine and its load.
"""

import argparse
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYER_BUDGET_SECONDS, PLAYER_BUDGET_COUNT = 5.0, 50_000
FILE_BUDGET_SECONDS, FILE_BUDGET_MB = 2.0, 200

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Players" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)
SHEET_START = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
SHEET_END = "</sheetData></worksheet>"
STRINGS_START = (
    '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)


def _column(number):
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _inline(text):
    return f'<c t="inlineStr"><is><t>{text}</t></is></c>'


def xlsx_file(players=(), empty_cells=0, shared_strings=0, referenced=False):
    """An .xlsx player list: a header row (followed by `empty_cells` empty cells, each with its
    reference "C1"… when `referenced`), one row per (name, organisation) in `players`, and
    `shared_strings` unused shared strings."""
    empty = [f'<c r="{_column(n)}1"/>' for n in range(3, empty_cells + 3)] if referenced else ["<c/>"] * empty_cells
    rows = ['<row r="1">' + _inline("name") + _inline("organisation") + "".join(empty) + "</row>"]
    rows += [f'<row r="{n}">{_inline(name)}{_inline(org)}</row>' for n, (name, org) in enumerate(players, start=2)]
    strings = STRINGS_START + "<si><t/></si>" * shared_strings + "</sst>"
    return xlsx_package(SHEET_START + "".join(rows) + SHEET_END, strings)


def xlsx_package(sheet, strings):
    """An .xlsx file of one sheet with the given sheet and shared strings XML."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
        archive.writestr("xl/sharedStrings.xml", strings)
    return buffer.getvalue()


def setup_django():
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("TESTING", "1")
    os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="bench-import-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def reset_peak():
    """Start measuring the peak memory from now (Linux); elsewhere the process's whole peak."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def peak_mb():
    try:
        status = Path("/proc/self/status").read_text()
        return int(status.split("VmHWM:")[1].split()[0]) / 1024
    except (OSError, IndexError, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def read_file_in_this_process(path):
    """Child process: read one player file; print seconds, memory growth and the outcome."""
    setup_django()
    from django.utils import translation

    from organiser.importers import read_player_file
    from tournament.refusals import Refused

    translation.activate("en")

    data = Path(path).read_bytes()
    reset_peak()
    before = peak_mb()
    start = time.perf_counter()
    try:
        outcome = f"read {len(read_player_file(Path(path).name, data))} rows"
    except Refused as refusal:
        outcome = f"refused: {refusal.message}"
    print(f"{time.perf_counter() - start:.3f} {peak_mb() - before:.0f} {peak_mb():.0f} {outcome}")


def bench_players(counts):
    from organiser.interchange import parse
    from tests.factories import tournament_data

    ok = True
    for count in counts:
        data = tournament_data(count, settings={"players_per_organisation": 2})
        start = time.perf_counter()
        parse(data)
        seconds = time.perf_counter() - start
        print(f"JSON import: {count:,} players validated in {seconds:.2f} s")
        if count >= PLAYER_BUDGET_COUNT:
            ok = ok and seconds < PLAYER_BUDGET_SECONDS
    return ok


def bench_files(cases, folder):
    ok = True
    for label, content in cases:
        path = Path(folder) / "players.xlsx"
        path.write_bytes(content)
        child = subprocess.run(
            [sys.executable, __file__, "--read-file", str(path)], capture_output=True, text=True, check=True, cwd=ROOT
        )
        seconds, megabytes, peak, outcome = child.stdout.strip().split(" ", 3)
        print(f"{label} ({len(content) / 1024:,.0f} KB): {seconds} s, +{megabytes} MB (peak {peak} MB), {outcome}")
        ok = ok and float(seconds) < FILE_BUDGET_SECONDS and float(megabytes) < FILE_BUDGET_MB
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="the smallest settings, a few seconds")
    parser.add_argument("--read-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read_file:
        read_file_in_this_process(args.read_file)
        return 0
    print("Machine figures; a shared or loaded machine is slower.")
    scale = 50 if args.smoke else 1
    roster = [(f"Gracz {n}", f"Klub {n}") for n in range(1, 2001)]
    cases = [
        ("2,000 players", xlsx_file(roster)),
        (f"one row of {6_000_000 // scale:,} empty cells", xlsx_file(empty_cells=6_000_000 // scale)),
        (f"one row of {4_900_000 // scale:,} empty cells", xlsx_file(empty_cells=4_900_000 // scale)),
        (f"one row of {700_000 // scale:,} empty cells C1…", xlsx_file(empty_cells=700_000 // scale, referenced=True)),
        (f"{1_500_000 // scale:,} empty shared strings", xlsx_file(roster[:5], shared_strings=1_500_000 // scale)),
    ]
    with tempfile.TemporaryDirectory() as folder:
        files_ok = bench_files(cases, folder)
    setup_django()
    players_ok = bench_players([2_000] if args.smoke else [10_000, PLAYER_BUDGET_COUNT])
    print(
        f"budget: {PLAYER_BUDGET_COUNT:,} players validated in < {PLAYER_BUDGET_SECONDS:.0f} s: "
        f"{'PASS' if players_ok else 'FAIL'}{' (not measured by --smoke)' if args.smoke else ''}"
    )
    print(
        f"budget: every file refused or read in < {FILE_BUDGET_SECONDS:.0f} s and < {FILE_BUDGET_MB} MB: "
        f"{'PASS' if files_ok else 'FAIL'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

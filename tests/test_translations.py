"""Every UI string has a Polish translation, `msgfmt --check` is clean and the compiled
catalogue matches the source catalogue."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

PO = Path(__file__).resolve().parent.parent / "config" / "locale" / "pl" / "LC_MESSAGES" / "django.po"
ENTRY = re.compile(r'^(#,.*\n)?msgid "(.*)"\n((?:".*"\n)*)(msgid_plural "(.*)"\n((?:".*"\n)*))?((?:msgstr.*\n(?:".*"\n)*)+)', re.M)


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unquote(first, rest):
    text = first + "".join(line[1:-1] for line in rest.splitlines())
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), text)


def entries():
    for match in ENTRY.finditer(PO.read_text(encoding="utf-8")):
        flags, msgid, msgid_rest = match.group(1) or "", match.group(2), match.group(3)
        if not msgid and not msgid_rest:
            continue  # the header
        strings = re.findall(r'^msgstr(?:\[\d\])? "(.*)"\n((?:".*"\n)*)', match.group(7), re.M)
        yield {
            "fuzzy": "fuzzy" in flags, "msgid": unquote(msgid, msgid_rest),
            "plural": match.group(4) is not None, "msgstr": [unquote(a, b) for a, b in strings],
        }


def test_every_string_is_translated_and_none_is_fuzzy():
    found = list(entries())
    assert len(found) > 300
    assert [e["msgid"] for e in found if e["fuzzy"] or not all(e["msgstr"])] == []


def test_msgfmt_check_is_clean():
    if shutil.which("msgfmt") is None:
        pytest.fail("gettext's msgfmt is missing")
    subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(PO)], check=True, capture_output=True)


def test_the_compiled_catalogue_matches_the_po_file():
    with translation.override("pl"):
        for entry in entries():
            if not entry["plural"] and "%" not in entry["msgid"]:
                assert translation.gettext(entry["msgid"]) == entry["msgstr"][0], entry["msgid"]

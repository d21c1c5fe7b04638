"""Every UI string has a Polish translation, `msgfmt --check` is clean and the compiled
catalogue matches the source catalogue."""

import shutil
import subprocess

import pytest
from django.utils import translation

from tests.support.files import PO, entries


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
                if entry["context"] is None:
                    translated = translation.gettext(entry["msgid"])
                else:
                    translated = translation.pgettext(entry["context"], entry["msgid"])
                assert translated == entry["msgstr"][0], entry["msgid"]

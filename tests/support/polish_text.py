"""Polish pages read in Polish: the text a reader sees (`visible_text`), and the English text in it
that the catalogue translates (`untranslated`, against `english_fragments`). Shared by the test of
every page (tests/system/test_every_page.py) and the season's walk (bench/season_walk.py); no Django."""

import functools
import re
from html.parser import HTMLParser

from tests.support.files import entries

VISIBLE_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
LEFTOVER_SYNTAX = ("{{", "}}", "{%", "%}", "%(")


class VisibleText(HTMLParser):
    """The text a reader sees or hears in the page's language: text nodes outside script and
    style, and the title, aria-label, placeholder and alt attributes; not the text of an element
    marked with another language (the language switch names English in English)."""

    def __init__(self):
        super().__init__()
        self.chunks, self.hidden, self.foreign = [], 0, []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag in ("script", "style"):
            self.hidden += 1
        if attributes.get("lang") and not attributes["lang"].startswith("pl") and tag != "html":
            self.foreign.append(tag)
            self.hidden += 1
        if not self.hidden:
            self.chunks.extend(value for name, value in attrs if name in VISIBLE_ATTRIBUTES and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1
        if self.foreign and self.foreign[-1] == tag:
            self.foreign.pop()
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.chunks.append(" ".join(data.split()))


def visible_text(html):
    parser = VisibleText()
    parser.feed(html)
    return "\n".join(parser.chunks)


def english_fragments():
    """Fixed English text that has a different Polish translation: whole messages without
    placeholders, and the parts of three words or more between the placeholders of the others."""
    fragments = set()
    for entry in entries():
        if entry["plural"] or "<" in entry["msgid"] or entry["msgstr"][0] == entry["msgid"]:
            continue
        parts = re.split(r"%\(\w+\)[sd]|%[sd]", entry["msgid"])
        if len(parts) == 1:
            fragments.add(entry["msgid"].strip())
            continue
        for part in parts:
            part = " ".join(part.split()).strip(" .,:;·()“”")
            if len(part.split()) >= 3 and part not in entry["msgstr"][0]:
                fragments.add(part)
    return {fragment for fragment in fragments if fragment}


@functools.cache
def whole_words(fragment):
    """The fragment as a pattern that matches it as whole words only (compiled once: the
    catalogue holds more fragments than the re module's own cache keeps)."""
    return re.compile(rf"(?<![\w]){re.escape(fragment)}(?![\w])")


def untranslated(text, fragments):
    lines = text.split("\n")
    found = []
    for fragment in fragments:
        # A fragment absent from the text cannot match: most are, and a substring test is cheap.
        if fragment in text and any(whole_words(fragment).search(line) for line in lines):
            found.append(fragment)
    return sorted(found)

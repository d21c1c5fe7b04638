"""ARIA in the templates: `aria-label` only where an element may carry one. On a span, div, p,
list item or cell without a role, axe flags it ("needs review") and screen readers may ignore it;
such text goes in a visually hidden span instead (`.visually-hidden`, in app.css)."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
GENERIC = re.compile(r"<(span|div|p|li|td|strong|em|b|i)\b([^>]*)>", re.S)


def test_no_generic_element_carries_an_aria_label():
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for match in GENERIC.finditer(path.read_text(encoding="utf-8")):
            attributes = match.group(2)
            if "aria-label=" in attributes and "role=" not in attributes:
                found.append(f"{path.relative_to(TEMPLATES)}: {match.group(0)[:90]}")
    assert found == []

"""Every public address (public/urls.py) is listed on docs/reference/urls.md."""

import re
from pathlib import Path

from django.urls import URLPattern

from public import urls as public_urls

ROOT = Path(__file__).resolve().parents[2]


def shape(address):
    """An address with each parameter as <>: `t/<slug:slug>/` and `/t/<slug>/` are both `/t/<>/`."""
    return "/" + re.sub(r"<[^>]+>", "<>", address).lstrip("/")


def test_every_public_address_is_on_the_reference_page():
    patterns = [pattern for pattern in public_urls.urlpatterns if isinstance(pattern, URLPattern)]
    text = (ROOT / "docs" / "reference" / "urls.md").read_text(encoding="utf-8")
    listed = {shape(address) for address in re.findall(r"`(/[^`\s]*)`", text)}
    assert len(patterns) >= 19
    missing = [str(pattern.pattern) for pattern in patterns if shape(str(pattern.pattern)) not in listed]
    assert missing == []


def test_every_link_into_the_help_pages_names_a_section_they_have():
    templates = {"organiser": "organiser", "head-referee": "head_referee", "referee": "referee"}
    links = [
        link
        for page in sorted((ROOT / "docs").rglob("*.md"))
        for link in re.findall(r"/help/([a-z-]+)/#([a-z-]+)", page.read_text(encoding="utf-8"))
    ]
    assert len(links) >= 15
    for role, section in links:
        template = (ROOT / "templates" / "help" / f"{templates[role]}.html").read_text(encoding="utf-8")
        assert f'id="{section}"' in template, (role, section)

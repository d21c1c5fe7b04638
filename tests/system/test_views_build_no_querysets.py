"""Views parse, call and render: every queryset is built in a selectors module.

Each views module of the apps (`<app>/views.py`, `<app>/views/*.py`) is read as source, its
comments and strings left out, and none may query the database itself. A view may still name a
model or its choices (`Player.Status.ACTIVE`).
"""

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "organiser", "printing", "public", "scoring", "tournament")

QUERYING = re.compile(
    r"\.objects\b|\.filter\(|\.exclude\(|\bselect_related\(|\bprefetch_related\(|\bPrefetch\("
    r"|\bget_object_or_404\b|\bget_list_or_404\b|\.get\(\s*\w+\s*=|\.order_by\(|\.values(?:_list)?\("
    r"|\.annotate\(|\.aggregate\(|\.exists\(\)|\.count\(\)|\.first\(\)|\.last\(\)|\.all\(\)|\.raw\("
    r"|\bconnection\b"
)


def views_modules():
    for app in APPS:
        yield from (path for path in [ROOT / app / "views.py"] if path.exists())
        yield from sorted((ROOT / app / "views").glob("*.py"))


def code_lines(source):
    """{line number: the line's code}, comments and strings (docstrings too) left out."""
    lines = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.COMMENT, tokenize.STRING, tokenize.NL, tokenize.NEWLINE):
            continue
        lines[token.start[0]] = lines.get(token.start[0], "") + token.string
    return lines


def queries_in(source):
    """(line number, code) of each line that queries the database."""
    return [(number, line) for number, line in sorted(code_lines(source).items()) if QUERYING.search(line)]


def test_no_view_builds_a_queryset():
    modules = list(views_modules())
    assert len(modules) >= 10
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line}"
        for path in modules
        for number, line in queries_in(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_catches_the_queries_it_is_for():
    assert queries_in("players = Player.objects.all()\n")
    assert queries_in("round_ = get_object_or_404(Round, pk=pk)\n")
    assert queries_in("tables = round_.tables.order_by('number')\n")
    assert queries_in("seats = table.seats.select_related('player')\n")
    assert queries_in("player = Player.objects.get(pk=1)\n")
    assert queries_in("n = tournament.players.count()\n")
    assert not queries_in('"""Every queryset (.filter(), .objects) is read by a selector."""\n')
    assert not queries_in("status = Player.Status.ACTIVE  # never Player.objects here\n")
    assert not queries_in("next_url = request.POST.get('next')\n")

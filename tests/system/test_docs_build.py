"""`make docs` builds the manual with `mkdocs build --strict`, and a broken link fails it; the README
stays short and its links lead to files that exist."""

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv"


def make_docs(folder, site):
    """`make docs` as the Makefile writes it, run in `folder` (its mkdocs.yml and docs/), the install
    steps skipped (the test runs inside the installed environment)."""
    return subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-f",
            str(ROOT / "Makefile"),
            "-o",
            "system-packages",
            "-o",
            f"{VENV}/.installed-test",
            "docs",
            f"VENV={VENV}",
            f"DOCS_SITE={site}",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


def nav_pages():
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    return re.findall(r"^\s*- (?:[^\n]*: )?([\w/-]+\.md)$", text, flags=re.M)


def test_make_docs_builds_every_page_of_the_nav(tmp_path):
    result = make_docs(ROOT, tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    pages = nav_pages()
    assert len(pages) >= 30
    for page in pages:
        built = tmp_path / "site" / (page.removesuffix("index.md") if page.endswith("index.md") else page[:-3] + "/")
        assert (built / "index.html").is_file(), page
    assert "mermaid" in (tmp_path / "site" / "developers" / "floor-plan" / "index.html").read_text(encoding="utf-8")


def test_a_broken_link_or_a_page_outside_the_nav_fails_the_build(tmp_path):
    for change in ("link", "page"):
        folder = tmp_path / change
        shutil.copytree(ROOT / "docs", folder / "docs")
        shutil.copy(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
        if change == "link":
            with (folder / "docs" / "staff" / "final.md").open("a", encoding="utf-8") as page:
                page.write("\nSee [the missing page](missing.md).\n")
        else:
            (folder / "docs" / "venue" / "orphan.md").write_text("# Not in the nav\n", encoding="utf-8")
        result = make_docs(folder, folder / "site")
        assert result.returncode != 0, change
        assert "strict mode" in result.stdout + result.stderr, change


def test_the_readme_is_read_in_two_minutes_and_its_links_lead_somewhere():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert "make run" in text and "make test" in text
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [target for target in targets if "://" not in target]
    assert len(local) >= 20
    for target in local:
        assert (ROOT / target).is_file(), target
    for image in ("docs/images/score-sheet.png", "docs/images/projector.png"):
        assert image in text

"""The reference's one table of environment variables (docs/reference/environment.md) names every
variable `config/settings.py` reads, and no variable it does not; each other row names a file that
reads it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = "config/settings.py"


def read_by_settings():
    text = (ROOT / SETTINGS).read_text(encoding="utf-8")
    names = set(re.findall(r"""environ(?:\.get\(|\[)\s*["']([A-Z][A-Z0-9_]*)["']""", text))
    names |= set(re.findall(r"""env_flag\(\s*["']([A-Z][A-Z0-9_]*)["']""", text))
    if "dj_database_url.config(" in text:  # reads DATABASE_URL from the environment itself
        names.add("DATABASE_URL")
    return names


def table_rows():
    """{variable: the files in its "read by" column} from the table's rows."""
    text = (ROOT / "docs" / "reference" / "environment.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|", text, flags=re.M)
    return {name: re.findall(r"`([\w./-]+)`", read_by) for name, read_by in rows}


def test_the_table_names_exactly_what_the_settings_read():
    rows = table_rows()
    documented = {name for name, files in rows.items() if SETTINGS in files}
    assert read_by_settings() == documented
    assert {"DATABASE_URL", "SECRET_KEY", "PUBLIC_URL", "HOSTED", "REDIS_URL", "PROXY_HOPS"} <= documented


def test_each_other_row_names_a_file_that_reads_it():
    for name, files in table_rows().items():
        assert files, name
        for file in files:
            assert name in (ROOT / file).read_text(encoding="utf-8"), (name, file)


def test_the_settings_reader_finds_each_way_of_reading():
    assert read_by_settings() >= {"VAR_DIR", "DEBUG", "TESTING", "LOG_LEVEL", "SENTRY_DSN"}

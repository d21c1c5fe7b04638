"""Every app stays readable: no source file over 500 lines, no function or method over 60.

The engine holds the same rules in engine/tests/test_code_shape.py; this test reads every
other package of the project (its tests and migrations left out).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "accounts", "tournament", "scoring", "organiser", "public", "printing")
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 60


def source_files():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not {"migrations", "tests", "__pycache__"} & set(path.parts):
                yield path


def long_functions(source):
    """(name, first line, lines) of each function or method longer than the rule allows; a
    nested function counts in its parent's lines too."""
    return [
        (node.name, node.lineno, node.end_lineno - node.lineno + 1)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]


def test_every_package_is_read():
    files = {path.relative_to(ROOT).parts[0] for path in source_files()}
    assert files == set(PACKAGES)


def test_no_source_file_is_longer_than_500_lines():
    too_long = [
        f"{path.relative_to(ROOT)} ({lines} lines)"
        for path in source_files()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES
    ]
    assert too_long == []


def test_no_function_is_longer_than_60_lines():
    too_long = [
        f"{path.relative_to(ROOT)}:{line} {name} ({length} lines)"
        for path in source_files()
        for name, line, length in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert too_long == []


def test_no_benchmark_function_is_longer_than_60_lines():
    """The benchmarks (bench/) are read and changed like the apps: the same rule for their functions."""
    too_long = [
        f"{path.relative_to(ROOT)}:{line} {name} ({length} lines)"
        for path in sorted((ROOT / "bench").glob("*.py"))
        for name, line, length in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert too_long == []


def test_the_rules_catch_what_they_are_for():
    body = "".join(f"    x{n} = {n}\n" for n in range(60))
    assert long_functions(f"def long():\n{body}") == [("long", 1, 61)]
    method = "".join(f"        x{n} = {n}\n" for n in range(59))
    assert long_functions(f"class Page:\n    def short(self):\n{method}") == []

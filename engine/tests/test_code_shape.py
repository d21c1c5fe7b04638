"""The engine stays readable: no function or method longer than 60 lines."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent
MAX_LINES = 60


def function_lengths(source):
    """(name, first line, lines) of every function and method in ``source``; a nested
    function counts in its parent's lines too."""
    lengths = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            last = node.end_lineno if node.end_lineno is not None else node.lineno
            lengths.append((node.name, node.lineno, last - node.lineno + 1))
    return lengths


def test_lengths_are_counted_from_def_to_last_line_nested_functions_included():
    source = "class Plan:\n    def load(self):\n        def inner():\n            return 1\n\n        return inner()\n"
    assert sorted(function_lengths(source)) == [("inner", 3, 2), ("load", 2, 5)]


def test_no_function_in_the_engine_is_longer_than_60_lines():
    too_long = [
        f"{path.relative_to(ENGINE.parent)}:{line} {name} ({length} lines)"
        for path in sorted(ENGINE.rglob("*.py"))
        for name, line, length in function_lengths(path.read_text(encoding="utf-8"))
        if length > MAX_LINES
    ]
    assert too_long == []

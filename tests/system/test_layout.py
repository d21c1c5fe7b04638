"""The tests are laid out like the code, and no test module imports another.

`tests/<app>/` holds the tests of one app (a package of the project), `tests/system/` those of
the whole system; `tests/` itself holds only the shared fixtures (conftest.py) and builders
(factories.py), `tests/support/` the modules the tests use that are not tests, `tests/data/`
their files. A helper or fixture that two test modules need goes to conftest.py,
factories.py or tests/support/, never from one test module to another (the engine's own tests,
in engine/tests/, included).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
TOP_LEVEL_MODULES = {"__init__.py", "conftest.py", "factories.py"}
FOLDERS_OF_THEIR_OWN = {"system", "support", "data"}


def is_test_module(path):
    return path.suffix == ".py" and (path.name.startswith("test_") or path.stem.endswith("_test"))


def project_packages():
    """The top-level packages of the project (the apps, config and the engine)."""
    return {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests"}


def python_files():
    for folder in (TESTS, ROOT / "engine" / "tests"):
        yield from (path for path in sorted(folder.rglob("*.py")) if "__pycache__" not in path.parts)


def imported_modules(path):
    """(line, dotted name) of every module an import in `path` may load, `pytest_plugins` included."""
    package = ".".join(path.relative_to(ROOT).parent.parts)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            yield node.lineno, module
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"  # `from package import module`
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytest_plugins" for t in node.targets):
            for value in ast.walk(node.value):
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield node.lineno, value.value


def test_no_test_module_imports_another():
    found = []
    for path in python_files():
        for line, module in imported_modules(path):
            target = ROOT.joinpath(*module.split(".")).with_suffix(".py")
            if is_test_module(target) and target.exists() and target != path:
                found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not found, (
        "move what is shared to tests/conftest.py (fixtures), tests/factories.py (builders) or "
        "tests/support/:\n" + "\n".join(found)
    )


def test_tests_itself_holds_only_the_shared_fixtures_and_builders():
    modules = {path.name for path in TESTS.glob("*.py")}
    assert modules - TOP_LEVEL_MODULES == set(), (
        "a test goes to tests/<app>/ (or tests/system/), a support module to tests/support/"
    )


def test_the_folders_of_tests_are_the_apps_the_system_and_support():
    packages = project_packages() - {"engine"}  # the engine's tests live in engine/tests/
    assert {"scoring", "organiser", "public"} <= packages  # the project's packages are found
    folders = {path.name for path in TESTS.iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert folders - packages - FOLDERS_OF_THEIR_OWN == set()
    for folder in folders - {"data"}:
        assert (TESTS / folder / "__init__.py").exists(), f"tests/{folder}/ needs an __init__.py"
        assert not [
            path
            for path in (TESTS / folder).rglob("*")
            if path.is_dir() and path.name != "__pycache__" and not (path / "__init__.py").exists()
        ], f"a folder under tests/{folder}/ lacks an __init__.py"
    assert not [path.name for path in (TESTS / "support").glob("*.py") if is_test_module(path)], (
        "tests/support/ holds no tests"
    )

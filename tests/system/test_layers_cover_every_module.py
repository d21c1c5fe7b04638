"""The layer contract inside the apps (pyproject.toml, `lint-imports`) covers every module.

import-linter checks only the modules a contract names: a module outside every layer would be
checked by nothing. So every top-level module and package of every app must be named in one of
the layers, and the last layer (plain Python) holds no query and no write.
"""

import io
import re
import tokenize
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = "Inside each app"
NOT_CODE = {"__init__", "migrations", "templates", "static", "locale", "__pycache__"}
DATABASE = re.compile(r"\.objects\b|\bconnection\b|\bcursor\(|\.save\(|\.raw\(|\bapps\.get_model\(")


def app_layers():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    contract = next(c for c in contracts if c["name"].startswith(CONTRACT))
    layers = [[name.strip(" ()") for name in re.split(r"[|:]", layer)] for layer in contract["layers"]]
    return contract["containers"], layers


def top_level_modules(app):
    for path in sorted((ROOT / app).iterdir()):
        if path.stem in NOT_CODE:
            continue
        if path.suffix == ".py" or (path / "__init__.py").exists():
            yield path


def code_of(path):
    """The code of a module (or of every module of a package), its comments and strings left out."""
    files = [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
    return "\n".join(
        "".join(
            t.string
            for t in tokenize.generate_tokens(io.StringIO(f.read_text(encoding="utf-8")).readline)
            if t.type not in (tokenize.COMMENT, tokenize.STRING)
        )
        for f in files
    )


def test_every_module_of_every_app_is_in_a_layer():
    apps, layers = app_layers()
    named = {name for layer in layers for name in layer}
    outside = [f"{path.relative_to(ROOT)}" for app in apps for path in top_level_modules(app) if path.stem not in named]
    assert outside == [], "place each in a layer of the contract in pyproject.toml"


def test_every_layer_name_is_a_module_of_some_app():
    apps, layers = app_layers()
    modules = {path.stem for app in apps for path in top_level_modules(app)}
    assert {name for layer in layers for name in layer} - modules == set()


def test_the_plain_python_modules_never_touch_the_database():
    apps, layers = app_layers()
    touching = [
        f"{path.relative_to(ROOT)}"
        for app in apps
        for path in top_level_modules(app)
        if path.stem in layers[-1] and DATABASE.search(code_of(path))
    ]
    assert touching == []


def test_the_database_check_catches_what_it_is_for():
    assert DATABASE.search("Player.objects.all()") and DATABASE.search("with connection.cursor() as c:")
    assert not DATABASE.search("names = sorted_by_surname(players)")

"""The wheel's packages: the apps, and the checkout's top-level `templates/` and `static/`, which an
installed package (`pip install .`, the container image) carries inside `config`. The rest of the
build's settings are in pyproject.toml."""

from setuptools import find_packages, setup

APPS = ["config", "engine", "tournament", "accounts", "scoring", "organiser", "public", "printing"]

setup(
    packages=[*find_packages(include=[f"{app}*" for app in APPS]), "config.templates", "config.static"],
    package_dir={"config.templates": "templates", "config.static": "static"},
)

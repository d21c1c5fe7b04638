"""The lock (requirements/run.txt, requirements/test.txt) agrees with pyproject.toml.

`make run`, `make test` and the container image install the lock, then the project with
--no-deps: a dependency added to pyproject.toml without `make lock` would be missing at run time,
so every requirement must be pinned there, exactly once, with its hashes.
"""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", re.M)


def pins(name):
    text = (ROOT / "requirements" / name).read_text()
    found = {}
    for entry in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = PIN.match(entry)
        if match:
            package = canonicalize_name(match.group(1))
            assert package not in found, f"{package} pinned twice in {name}"
            assert "--hash=sha256:" in entry, f"{package} has no hash in {name}"
            found[package] = match.group(2)
    return found


def requirements(*groups):
    listed = list(PYPROJECT["build-system"]["requires"])
    for group in groups:
        listed += (
            PYPROJECT["project"]["dependencies"]
            if group == "run"
            else PYPROJECT["project"]["optional-dependencies"][group]
        )
    return [Requirement(line) for line in listed]


@pytest.mark.parametrize("lock, groups", [("run.txt", ["run"]), ("test.txt", ["run", "test"]), ("test.txt", ["bench"])])
def test_every_requirement_of_pyproject_is_pinned_in_the_lock_within_its_range(lock, groups):
    pinned = pins(lock)
    for requirement in requirements(*groups):
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} is not in requirements/{lock}: run `make lock`"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"requirements/{lock} pins {name}=={pinned[name]}, outside {requirement}: run `make lock`"
        )
        for extra in requirement.extras:  # psycopg[binary]
            assert canonicalize_name(f"{name}-{extra}") in pinned, (
                f"{requirement}: the extra is not in requirements/{lock}"
            )


def test_the_test_lock_keeps_the_runtime_versions():
    run, test = pins("run.txt"), pins("test.txt")
    assert {name: test.get(name) for name in run} == run


def test_the_lock_names_no_index_or_local_path():
    for name in ("run.txt", "test.txt"):
        text = "\n".join(
            line for line in (ROOT / "requirements" / name).read_text().splitlines() if not line.startswith("#")
        )
        assert not re.search(r"^\s*-(-index-url|-extra-index-url|-find-links|f|i)\b", text, re.M), name
        assert "file:" not in text and " @ " not in text, name

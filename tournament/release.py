"""Which release is running: a digest of the contents of the files that render pages and PDFs.

Cached public pages and PDFs are keyed on it (with the tournament's data), so two app servers of
one release, each with its own checkout or image, folders and file times, make the same keys and
share one rendering, while a release that changes a template, a stylesheet, a font, a translation
or the code that fills them in makes new keys: nothing an earlier release rendered is served.

Only each file's path inside its folder and its bytes count, never its time, owner or the folder's
place on the disk; the digest also names the versions of the libraries that render (Django's
templates, Jinja2, WeasyPrint, pypdf, segno). It is computed once per process (a few MB read, a few
hundredths of a second, at the first cached page).
"""

from __future__ import annotations

import functools
import hashlib
from importlib import import_module, metadata
from pathlib import Path

from django.conf import settings

APPS = ("config", "public", "printing", "organiser", "scoring", "accounts", "tournament", "engine")
LIBRARIES = ("Django", "django-template-partials", "Jinja2", "weasyprint", "pypdf", "segno")


def _counted(relative: Path) -> bool:
    """Not Python's compiled files, nor hidden files (an editor's, the desktop's)."""
    return "__pycache__" not in relative.parts and not any(part.startswith(".") for part in relative.parts)


def content_digest(folders: dict[str, Path], *, outside: tuple[Path, ...] = ()) -> str:
    """A digest of every file under `folders` (label → folder): its label, path inside the
    folder and bytes. Files under a folder of `outside` are left to their own label."""
    digest = hashlib.sha256()
    for label, folder in sorted(folders.items()):
        files = {}
        for path in folder.rglob("*"):
            relative = path.relative_to(folder)
            if path.is_file() and _counted(relative) and not any(path.is_relative_to(o) for o in outside):
                files[relative.as_posix()] = path
        for name, path in sorted(files.items()):
            content = path.read_bytes()
            digest.update(f"{label}/{name}\0{len(content)}\0".encode())
            digest.update(content)
    return digest.hexdigest()


def library_versions() -> str:
    versions = []
    for name in LIBRARIES:
        try:
            versions.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}=none")
    return " ".join(versions)


def site_folders() -> dict[str, Path]:
    """The site's templates and static files (in the checkout, or inside `config` when installed)."""
    templates = [Path(folder) for engine in settings.TEMPLATES for folder in engine.get("DIRS", ())]
    static = [Path(folder) for folder in settings.STATICFILES_DIRS]
    return {
        **{f"templates{i}": folder for i, folder in enumerate(dict.fromkeys(templates))},
        **{f"static{i}": folder for i, folder in enumerate(static)},
    }


@functools.cache
def fingerprint() -> str:
    """This release's fingerprint: 16 hex digits, the same on every server running it."""
    site = site_folders()
    apps = {app: Path(import_module(app).__file__ or "").parent for app in APPS}
    digest = hashlib.sha256(library_versions().encode())
    digest.update(content_digest(site).encode())
    digest.update(content_digest(apps, outside=tuple(site.values())).encode())
    return digest.hexdigest()[:16]

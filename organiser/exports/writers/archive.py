"""Files at relative paths packed into a .zip (the static results site)."""

import io
import posixpath
import zipfile

FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # every entry gets the same time: the same site gives the same bytes


def zip_bytes(files):
    """The .zip of {relative path: bytes}, compressed, paths in order.

    A path must stay inside the archive: no leading slash, no `..`, no backslash.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for path in sorted(files):
            check_relative(path)
            info = zipfile.ZipInfo(path, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[path])
    return out.getvalue()


def check_relative(path):
    normal = posixpath.normpath(path)
    if path.startswith("/") or "\\" in path or normal.startswith("..") or normal != path:
        raise ValueError(f"not a plain relative path: {path!r}")

"""A file to upload, and the staging token a backup's preview page carries."""

import io


def named(content, name):
    """`content` (bytes or text) as an uploaded file called `name`."""
    handle = io.BytesIO(content if isinstance(content, bytes) else content.encode())
    handle.name = name
    return handle


def token_of(html):
    """The staged upload's token in a preview page."""
    return html.split('name="token" value="')[1].split('"')[0]

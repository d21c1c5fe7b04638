"""The site's URL patterns, enumerated from the URL conf: the page walks (tests/system/
test_every_page.py) and the POST fuzzing (tests/system/test_fuzz_posts.py) cover every one."""

from django.urls import URLPattern, URLResolver, get_resolver


def url_patterns(resolvers=None, prefix="", namespace=""):
    """(route, name with namespace, argument names, pattern) of every pattern, admin included."""
    for entry in get_resolver().url_patterns if resolvers is None else resolvers:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from url_patterns(entry.url_patterns, route, inner)
        elif isinstance(entry, URLPattern):
            yield route, f"{namespace}{entry.name}" if entry.name else None, set(entry.pattern.converters), entry


def pattern_defaults(pattern):
    """The fixed keyword arguments a pattern passes to its view (not part of the URL)."""
    return pattern.default_args or {}

"""Settings for `bench_public.py`: production settings with a URL map that adds a bare view."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bare_urls"

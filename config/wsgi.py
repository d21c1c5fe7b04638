"""WSGI entry point (gunicorn config.wsgi, runserver).

Once the application is loaded, everything loaded so far (modules, settings, URL patterns,
templates) lives as long as the process: `gc.freeze()` takes it out of the garbage collector's
full scans, which otherwise walk all of it every so often and add tens of milliseconds to a
request that builds many objects (the standings of a large field).
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
gc.freeze()

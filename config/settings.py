"""Django settings, read from the environment.

DATABASE_URL   database (default: SQLite in var/db.sqlite3, WAL mode)
SECRET_KEY     Django's signing key (default: made once and kept in VAR_DIR/secret_key, mode 0600)
DEBUG          "1"/"true" for development only (`make dev`; default off)
ALLOWED_HOSTS  comma-separated host names served besides loopback names, IP addresses and this
               machine's own name (config/hosts.py); any other name gets 400
PUBLIC_URL     the address tablets and phones use, e.g. http://192.168.1.10:8000 (default: found
               from the request and the local network, see accounts/venue.py); an https address
               turns on secure cookies, the HTTPS redirect and HSTS
PROXY          "1" when a proxy in front terminates HTTPS and sets X-Forwarded-Proto (default off)
VAR_DIR        what the app writes: database, secret key, static files, snapshots, logs (default var/)
LISTEN_HOST    the address the server listens on (`bin/serve` sets it; 0.0.0.0 = the whole network)
CONTAINER      "1" in the container image: this machine's network address is not the laptop's, so
               the venue address is asked for on the organiser's pages (accounts/venue.py)
BACKUP_SNAPSHOTS  automatic snapshots queued as tasks: on (default) or off (default off in tests)
REDIS_URL      the cache shared by every app server, e.g. redis://127.0.0.1:6379/0 (default: each
               process's own memory, right for one laptop)
HOSTED         "1" for a service of many organisations on several app servers (config/hosted.py):
               refuses to start without SECRET_KEY, a PostgreSQL DATABASE_URL and REDIS_URL; no key
               file, no demo, no setup code (the operator runs `manage.py create_organisation`);
               `bin/serve` neither migrates nor runs a worker (`bin/serve release`, `bin/serve worker`);
               logs to standard output, one JSON line per event (default off: the laptop)
PROXY_HOPS     with PROXY=1, how many proxies in front append to X-Forwarded-For (default 1): the
               client's address is that many entries from the right (accounts/client_address.py),
               for the sign-in throttle and the setup code's tries
SENTRY_DSN     errors go to Sentry too when set (sentry-sdk, no personal data; default off)
STATEMENT_TIMEOUT  on PostgreSQL, the seconds a request's statement may run before it is cancelled
               and the request answers the 503 page (default 10; 0: no bound)
WORKER_STATEMENT_TIMEOUT  the same for the task worker and the release step (default 600)
CONN_MAX_AGE   seconds a database connection is kept for the next requests, checked before each
               reuse (default 60; 0: a new connection per request)
VENUE_CHECK    with HOSTED=1, "1" lets the server ask itself at a saved venue address (default off
               there: it would send requests to addresses organisers type; on a laptop always on)
"""

import datetime
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from accounts.venue import PublicUrlError, check_public_url
from config.database import statement_timeout_option
from config.hosted import OneLineJsonFormatter, missing_for_hosting, refusal, start_sentry
from config.secret_key import SecretKeyError, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
CONFIG_DIR = Path(__file__).resolve().parent
# The templates and static files sit at the top of a checkout; an installed package (`pip install .`,
# the container image) carries them inside `config`, beside the translations (pyproject.toml).
SITE_DIR = BASE_DIR if (BASE_DIR / "templates").is_dir() else CONFIG_DIR
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(exist_ok=True)
BACKUP_DIR = VAR_DIR / "backups"  # automatic snapshots, one folder per tournament (organiser/backups)


def env_flag(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG")
TESTING = env_flag("TESTING")  # set by `make test`; relaxes the production-only requirements
HOSTED = env_flag("HOSTED")  # a service of many organisations on several app servers (config/hosted.py)
if HOSTED and missing_for_hosting(dict(os.environ)):
    raise ImproperlyConfigured(refusal(missing_for_hosting(dict(os.environ))))
BACKUP_SNAPSHOTS = os.environ.get("BACKUP_SNAPSHOTS", "off" if TESTING else "on")
if TESTING and not os.environ.get("SECRET_KEY"):
    SECRET_KEY = "test-settings-key-for-the-test-suite-only-0123456789"
else:
    try:
        SECRET_KEY = secret_key(VAR_DIR, hosted=HOSTED)
    except (OSError, SecretKeyError) as error:
        raise ImproperlyConfigured(f"The secret key: {error}") from None

try:
    PUBLIC_URL = check_public_url(os.environ.get("PUBLIC_URL", ""))
except PublicUrlError as error:
    raise ImproperlyConfigured(str(error)) from None
# Host names served besides loopback names and IP addresses: PUBLIC_URL's,
# ALLOWED_HOSTS' and this machine's own name. config.hosts.HostCheckMiddleware decides (400 else),
# so Django's own check lets every host through to it.
SERVED_HOSTS = [h.strip().lower() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
if PUBLIC_URL:
    SERVED_HOSTS.append(urlsplit(PUBLIC_URL).hostname)
if TESTING:
    SERVED_HOSTS.append("testserver")
ALLOWED_HOSTS = ["*"]
LISTEN_HOST = os.environ.get("LISTEN_HOST", "")
# Seconds the server waits for itself at a saved venue address (accounts/venue_check.py); 0: never asks.
# Off on a hosted service unless the operator allows it (VENUE_CHECK=1).
VENUE_CHECK_TIMEOUT = 0.0 if HOSTED and not env_flag("VENUE_CHECK") else 2.0
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]
if PUBLIC_URL:
    CSRF_TRUSTED_ORIGINS.append(PUBLIC_URL)

INSTALLED_APPS = [
    "config.admin_site.OperatorsAdminConfig",  # the admin for superusers only
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "accounts",
    "tournament",
    "scoring",
    "organiser",
    "public",
    "printing",
]

MIDDLEWARE = [
    # Outermost: every answer gets the security headers, the 400 and 405 answered below included.
    "config.security.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.errors.MethodNotAllowedPageMiddleware",  # a 405 is the app's page, not the browser's
    "config.hosts.HostCheckMiddleware",  # before anything reads the request: 400 for a foreign host name
    "config.security.AllowedMethodsMiddleware",  # 405 for PUT, PATCH, DELETE…
    "config.security.NulByteMiddleware",  # 400 for a NUL in the path or query; none in posted fields
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Public pages for visitors not signed in: a 304 or the stored answer, before sessions and users.
    "public.freshness.PublicAnswerMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.security.StaffNoStoreMiddleware",  # staff pages are never stored by a browser
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tournament.submissions.SubmissionMiddleware",  # a form sent twice is done once (issue 28)
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out sign-in into its page
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "accounts.context_processors.roles",
            ],
            # `{% submission_token %}` in every staff form, with no `{% load %}` (tournament/submissions.py)
            "builtins": ["tournament.templatetags.submissions"],
        },
    },
    {
        # The score sheet's games (templates/scoring/sheet_games.html), asked for by name with
        # `using="jinja2"`: its hundreds of inputs at the speed of a simple page.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "config.jinja_env.environment"},
    },
]

SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
# Connections are kept for CONN_MAX_AGE seconds (0: one per request) and checked before each request
# reuses one: a connection a database restart closed is replaced at the request's start, never
# answered with an error.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# Bounded work on PostgreSQL: a statement that runs longer than this is cancelled and its request
# answers the app's 503 page (config/errors.py); the worker and the release step have their own
# bound (organiser/management/commands/run_tasks.py, config/serve.py). Seconds; 0: no bound.
STATEMENT_TIMEOUT = float(os.environ.get("STATEMENT_TIMEOUT", "10"))
WORKER_STATEMENT_TIMEOUT = float(os.environ.get("WORKER_STATEMENT_TIMEOUT", "600"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = statement_timeout_option(STATEMENT_TIMEOUT)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = SQLITE_OPTIONS
    # In production keep connections: a new SQLite connection re-reads the schema (~3 ms a request).
    DATABASES["default"]["CONN_MAX_AGE"] = 0 if DEBUG or TESTING else 60
    # Threaded and server tests need a file-backed test database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}

# Django's hashers, the default one bounded: at most PASSWORD_CHECKS_AT_ONCE password checks run at
# once in a server process, so a burst of sign-ins cannot starve the tablets' saves (config/passwords.py).
PASSWORD_HASHERS = [
    "config.passwords.BoundedPBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
PASSWORD_CHECKS_AT_ONCE = 1
# Every form that sets a password uses these (Django's messages, translated by Django): not like the
# user name, at least 8 characters, not a common password (Django's list and a Polish one), not
# only digits.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "config.password_rules.PolishCommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-in throttling (django-axes): a username is locked from one IP address only, for a
# cool-off, so wrong passwords on one tablet never lock out the venue (every tablet shares its IP).
# Behind the service's proxy (PROXY=1) the address is the client's from X-Forwarded-For.
AUTHENTICATION_BACKENDS = ["accounts.signin.SignInThrottleBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.signin.locked_out"
AXES_USERNAME_CALLABLE = "accounts.signin.throttled_username"  # at most the 255 characters axes stores
AXES_CLIENT_IP_CALLABLE = "accounts.client_address.client_address"  # behind the proxy: X-Forwarded-For
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:home"
LOGOUT_REDIRECT_URL = "accounts:login"

LANGUAGE_CODE = "pl"
LANGUAGES = [("pl", _("Polish")), ("en", _("English"))]
LOCALE_PATHS = [CONFIG_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Warsaw")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [SITE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
if DEBUG or TESTING:
    STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
WHITENOISE_USE_FINDERS = DEBUG or TESTING
# Without collected files, look each one up when asked rather than list them all whenever the
# middleware starts (each test client starts it again).
WHITENOISE_AUTOREFRESH = DEBUG or TESTING

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache: pages and PDFs rendered once per version. A service's app servers share Redis
# (Django's own RedisCache); a laptop keeps it in each process's memory. Losing it costs only speed.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # An unreachable Redis costs a request at most this long (tournament/shared_cache.py).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Long work (snapshots, a round's PDFs, the results-site zip, restores) runs as tasks queued in the
# database, in the transaction that asks for them, for a worker (`manage.py db_worker`) to run.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# E-mail (entries, invitations): Django's SMTP backend with Django's own setting names, from the
# environment. Without EMAIL_HOST no mail is sent: the outbox waits and the organiser's pages show
# the links to pass on by hand (tournament/services/mail.py, docs/reference/mail.md).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587" if env_flag("EMAIL_USE_TLS") else "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS")
EMAIL_USE_SSL = env_flag("EMAIL_USE_SSL")
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set EMAIL_USE_TLS or EMAIL_USE_SSL, not both (SSL: port 465, TLS: port 587).")
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "turniej@localhost")
# Entries (SPEC §11): contact details are blanked this many days after the tournament; at most
# this many entries an hour from one client address.
ENTRY_CONTACT_DAYS = int(os.environ.get("ENTRY_CONTACT_DAYS", "30"))
ENTRIES_PER_ADDRESS_HOUR = int(os.environ.get("ENTRIES_PER_ADDRESS_HOUR", "20"))

SESSION_COOKIE_AGE = 60 * 60 * 16  # one tournament day
CSRF_FAILURE_VIEW = "accounts.views.staff.csrf_failure"

# Plain HTTP on the venue's network (no certificates at a venue). An https PUBLIC_URL means a
# proxy in front terminates HTTPS: secure cookies, the redirect and HSTS then (`manage.py check
# --deploy` is clean). X-Forwarded-Proto is trusted only when PROXY=1 says a proxy sets it.
HTTPS = PUBLIC_URL.startswith("https://")
PROXY = env_flag("PROXY")
# How many proxies append to X-Forwarded-For: the client's address is that many entries from the
# right (accounts/client_address.py). Read only when PROXY=1.
hops = os.environ.get("PROXY_HOPS", "1").strip()
if not hops.isdigit() or int(hops) < 1:
    raise ImproperlyConfigured(f"PROXY_HOPS must be a whole number of proxies, 1 or more, not {hops!r}.")
PROXY_HOPS = int(hops)
if PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if HTTPS and not PROXY and not TESTING:
    raise ImproperlyConfigured(
        "PUBLIC_URL is an https:// address, but this server speaks plain HTTP: put a proxy that "
        "terminates HTTPS in front of it and set PROXY=1 (it must set X-Forwarded-Proto), "
        "or use an http:// address."
    )
if HTTPS:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
X_FRAME_OPTIONS = "DENY"
# Every page: the app's own scripts, styles, fonts and images only (see config/security.py).
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "style-src-attr": ["'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

# A server error: its traceback goes to the console, a row the dashboards show to the organisation
# it happened to (tournament/server_errors.py), and on a laptop a rotating file as well; no page
# ever shows one. A hosted service logs one JSON line per event to standard output, no file.
ERROR_LOG = None if HOSTED else VAR_DIR / "log" / "errors.log"
LOG_HANDLERS: dict[str, dict] = {
    "console": {"class": "logging.StreamHandler"},
    "server_errors": {"class": "tournament.server_errors.ServerErrorHandler", "level": "ERROR"},
}
if ERROR_LOG is None:
    LOG_HANDLERS["console"] = {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "one_line"}
else:
    ERROR_LOG.parent.mkdir(exist_ok=True)
    LOG_HANDLERS["error_file"] = {
        "class": "logging.handlers.RotatingFileHandler",
        "filename": str(ERROR_LOG),
        "level": "ERROR",
        "maxBytes": 1_000_000,
        "backupCount": 5,
        "encoding": "utf-8",
        "formatter": "dated",
        "delay": True,
    }
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "dated": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "one_line": {"()": OneLineJsonFormatter},
    },
    "handlers": LOG_HANDLERS,
    "root": {
        "handlers": ["console"] if ERROR_LOG is None else ["console", "error_file"],
        "level": os.environ.get("LOG_LEVEL", "WARNING"),
    },
    "loggers": {
        # A request for a foreign host name is refused (400), not an error of the app.
        "django.security.DisallowedHost": {"handlers": ["console"], "propagate": False},
        "django.request": {"handlers": ["server_errors"]},
    },
}
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    start_sentry(SENTRY_DSN)

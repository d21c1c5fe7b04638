"""The production server's options, in one place: `bin/serve` (`make run`, the container) starts
gunicorn with this file, and so does `make bench-hall`, which measures it.

Two workers of four threads each: the threads keep short requests (a leaderboard poll, a game
save, a static file) moving while another renders a PDF or a score sheet (docs/developers/benchmarks.md, "A full
hall"). `keepalive = 0` closes each connection after its answer: phones ask every 30 s, and a
phone reusing a connection just as the server closes it would see an error. On SIGTERM or Ctrl+C
the workers finish what they hold for at most `graceful_timeout` seconds, then stop.
Timeouts to match the database's bound on a request's statement (STATEMENT_TIMEOUT, 10 s by
default, config/database.py): a request whose statement is cancelled answers the 503 page on its
own; a worker silent for `timeout` seconds (three times that bound) is stopped and replaced; a
stop lets the requests in flight run to that bound and a little more (`graceful_timeout`).
Options given in GUNICORN_CMD_ARGS or on the command line override these (a benchmark's access log).
A hosted service (HOSTED=1) logs gunicorn's own events as the app's: one JSON line each on
standard output (config/hosted.py).
"""

import os

wsgi_app = "config.wsgi:application"
host = os.environ.get("HOST", "127.0.0.1").strip("[]")
bind = [f"[{host}]:{os.environ.get('PORT', '8000')}" if ":" in host else f"{host}:{os.environ.get('PORT', '8000')}"]
workers = 2
threads = 4
keepalive = 0
statement_timeout = float(os.environ.get("STATEMENT_TIMEOUT", "10")) or 10.0
timeout = max(30, round(3 * statement_timeout))
graceful_timeout = round(statement_timeout) + 5
control_socket_disable = True  # no management socket in the user's home: signals do the job

if os.environ.get("HOSTED", "").strip().lower() in {"1", "true", "yes", "on"}:
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"one_line": {"()": "config.hosted.OneLineJsonFormatter"}},
        "handlers": {
            "stdout": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "one_line"}
        },
        "root": {"level": "INFO", "handlers": []},
        "loggers": {
            "gunicorn.error": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
            "gunicorn.access": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
        },
    }

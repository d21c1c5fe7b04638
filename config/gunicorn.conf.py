"""The production server's options, in one place: `bin/serve` (`make run`, the container) starts
gunicorn with this file, and so does `make bench-hall`, which measures it.

Two workers of four threads each: the threads keep short requests (a leaderboard poll, a game
save, a static file) moving while another renders a PDF or a score sheet (docs/developers/benchmarks.md, "A full
hall"). `keepalive = 0` closes each connection after its answer: phones ask every 30 s, and a
phone reusing a connection just as the server closes it would see an error. On SIGTERM or Ctrl+C
the workers finish what they hold for at most `graceful_timeout` seconds, then stop.
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
timeout = 60
graceful_timeout = 5
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

# The app in one container, for an organiser's laptop (Windows, macOS or Linux with Docker):
# `docker compose up -d` (compose.yaml; docs/venue/container.md).
#
# Debian bookworm-slim with Debian's Python 3.11 and the libraries WeasyPrint needs, the project
# installed from its lock (requirements/run.txt) and its pyproject.toml, served by bin/serve as
# `make run` serves (migrations, the demo on an empty database, gunicorn), as a user that is not
# root. Everything the app writes (database, secret key, snapshots, logs) is in one volume: /app/var.

# ---- build: the exact dependencies in a virtual environment, and the project as a wheel
FROM debian:bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /app/.venv
# Only where the network to PyPI needs a certificate authority of its own: the path of that bundle,
# mounted into the build (`make image-test` mounts the host's); unset, pip trusts Debian's bundle.
ARG PIP_CERT
COPY requirements/run.txt /tmp/run.txt
RUN /app/.venv/bin/pip install --no-cache-dir --disable-pip-version-check --require-hashes -r /tmp/run.txt
COPY . /tmp/src
# Its templates, static files and translations are package data: the wheel carries them.
RUN /app/.venv/bin/pip wheel --no-cache-dir --disable-pip-version-check --no-deps --no-build-isolation \
      --wheel-dir /tmp/wheel /tmp/src

# ---- the image: Python, WeasyPrint's libraries (Pango, HarfBuzz's subsetter) and the fonts
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --user-group --uid 999 --create-home --home-dir /home/rummikub --shell /usr/sbin/nologin rummikub
# The dependencies (a layer that changes only with the lock), then the project, not editable.
COPY --from=build /app/.venv /app/.venv
COPY --from=build /tmp/wheel /tmp/wheel
RUN /app/.venv/bin/pip install --no-cache-dir --disable-pip-version-check --no-deps --no-index /tmp/wheel/*.whl \
 && rm -rf /tmp/wheel
COPY manage.py /app/
# Executable whatever the checkout it comes from (a Windows one keeps no file modes).
COPY --chmod=0755 bin/serve /app/bin/
RUN mkdir /app/var && chown rummikub:rummikub /app/var
WORKDIR /app
USER rummikub
# bin/serve's settings: listen on the container's network (the published port), the volume, the
# installed Python; CONTAINER=1: the container's own address is never offered to tablets (the
# organiser sets the venue address on its page). Caches (fontconfig's: rebuilt at the first PDF, since image layers keep no
# exact folder times) go to the user's home, out of the volume: they hold no data.
ENV CONTAINER=1 HOST=0.0.0.0 PORT=8000 VAR_DIR=/app/var PYTHON=/app/.venv/bin/python PATH=/app/.venv/bin:$PATH \
    HOME=/home/rummikub PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
VOLUME /app/var
EXPOSE 8000
# Healthy when the public home page (it reads the database) answers 200; the header keeps an
# HTTPS redirect away when a proxy in front terminates HTTPS (PUBLIC_URL=https://…, PROXY=1).
HEALTHCHECK --interval=10s --timeout=10s --start-period=180s --retries=3 CMD ["/app/.venv/bin/python", "-c", "import os, urllib.request; urllib.request.urlopen(urllib.request.Request('http://127.0.0.1:%s/' % os.environ.get('PORT', '8000'), headers={'X-Forwarded-Proto': 'https'}), timeout=8)"]
CMD ["bin/serve"]

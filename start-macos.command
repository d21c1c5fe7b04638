#!/bin/sh
# Double-click in Finder (it opens in Terminal): starts the Rummikub tournament app with Docker
# Desktop, waits until it is ready and opens it in the browser (docs/venue/container.md, "Windows and macOS").
# start-windows.bat does the same on Windows: change the two together.
cd "$(dirname "$0")" || exit 1
# Where Docker Desktop puts its command when it is not on the PATH of a Terminal window.
PATH="$PATH:$HOME/.docker/bin:/Applications/Docker.app/Contents/Resources/bin"
WAIT_SECONDS=300  # after the start: migrations, the demo and the static files at the first start

finish() {
  echo
  printf 'Press Enter to close this window. '
  read -r _ || true
  exit "$1"
}

show_log() {
  echo
  echo "The app's last messages:"
  docker compose logs --tail 40 app
}

if ! command -v docker >/dev/null 2>&1; then
  echo "Docker is not installed on this Mac."
  echo "Install Docker Desktop (https://www.docker.com/products/docker-desktop/), open it once,"
  echo "then double-click this file again."
  finish 1
fi
if ! docker info >/dev/null 2>&1; then
  echo "Docker Desktop is not running."
  echo "Open Docker Desktop (in Applications) and wait until it shows \"Engine running\","
  echo "then double-click this file again."
  finish 1
fi

port=$(sed -n 's/^[[:space:]]*PORT[[:space:]]*=[[:space:]]*\([0-9][0-9]*\).*$/\1/p' .env 2>/dev/null | tail -n 1)
port=${port:-8000}

echo "Starting the Rummikub tournament app."
echo "The first start builds it: that takes several minutes and needs the internet."
if ! docker compose up -d; then
  echo
  echo "The app could not be started: the messages above say why."
  finish 1
fi
container=$(docker compose ps -q app)
if [ -z "$container" ]; then
  echo "The app's container is missing after the start."
  show_log
  finish 1
fi

printf 'Waiting for the app to be ready '
waited=0
while :; do
  status=$(docker inspect --format '{{.State.Status}} {{.State.Health.Status}}' "$container" 2>/dev/null)
  case "$status" in
    "running healthy") break ;;
    *unhealthy)
      echo
      echo "The app started but does not answer."
      show_log
      finish 1 ;;
    "running "*|"created "*|"restarting "*) ;;
    *)
      echo
      echo "The app stopped (${status:-unknown})."
      show_log
      finish 1 ;;
  esac
  if [ "$waited" -ge "$WAIT_SECONDS" ]; then
    echo
    echo "The app is still not ready after $WAIT_SECONDS seconds."
    show_log
    finish 1
  fi
  printf '.'
  sleep 2
  waited=$((waited + 2))
done
echo " ready."

url="http://localhost:$port/"
open "$url"
echo
echo "The app is open in your browser: $url"
echo "Demo logins (also in the app's log and in its volume, /app/var/demo-logins.txt):"
docker compose exec -T app cat /app/var/demo-logins.txt
echo "Tablets and phones: see docs/venue/container.md (the venue address)."
echo "The app keeps running in Docker Desktop; to stop it: docker compose stop"
finish 0

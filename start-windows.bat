@echo off
rem Double-click: starts the Rummikub tournament app with Docker Desktop, waits until it is
rem ready and opens it in the browser (docs/venue/container.md, "Windows and macOS").
rem start-macos.command does the same on a Mac: change the two together.
setlocal
cd /d "%~dp0"
title Rummikub tournament
rem Docker Desktop's command, when this window started before Docker Desktop was installed.
where docker >nul 2>nul
if errorlevel 1 set "PATH=%PATH%;%ProgramFiles%\Docker\Docker\resources\bin"
set "WAIT_SECONDS=300"

where docker >nul 2>nul
if errorlevel 1 goto no_docker
docker info >nul 2>nul
if errorlevel 1 goto not_running

set "PORT=8000"
if exist ".env" for /f "usebackq eol=# tokens=1,2 delims== " %%a in (".env") do if /i "%%a"=="PORT" set "PORT=%%b"

echo Starting the Rummikub tournament app.
echo The first start builds it: that takes several minutes and needs the internet.
docker compose up -d
if errorlevel 1 goto not_started
set "CONTAINER="
for /f "delims=" %%i in ('docker compose ps -q app') do set "CONTAINER=%%i"
if not defined CONTAINER goto missing

echo Waiting for the app to be ready ...
set /a WAITED=0
:wait
set "STATE="
set "HEALTH="
for /f "tokens=1,2" %%a in ('docker inspect --format "{{.State.Status}} {{.State.Health.Status}}" %CONTAINER% 2^>nul') do (
  set "STATE=%%a"
  set "HEALTH=%%b"
)
if "%STATE% %HEALTH%"=="running healthy" goto ready
if "%HEALTH%"=="unhealthy" goto unhealthy
if "%STATE%"=="running" goto still_starting
if "%STATE%"=="created" goto still_starting
if "%STATE%"=="restarting" goto still_starting
goto stopped
:still_starting
if %WAITED% geq %WAIT_SECONDS% goto too_slow
timeout /t 2 /nobreak >nul
set /a WAITED+=2
goto wait

:ready
start "" "http://localhost:%PORT%/"
echo.
echo The app is open in your browser: http://localhost:%PORT%/
echo Demo logins - also in the app's log and in its volume, /app/var/demo-logins.txt:
docker compose exec -T app cat /app/var/demo-logins.txt
echo Tablets and phones: see docs\venue\container.md - the venue address.
echo The app keeps running in Docker Desktop; to stop it: docker compose stop
goto finish

:no_docker
echo Docker is not installed on this computer.
echo Install Docker Desktop from https://www.docker.com/products/docker-desktop/ and open it once,
echo then double-click this file again.
goto failed

:not_running
echo Docker Desktop is not running.
echo Open Docker Desktop from the Start menu and wait until it shows "Engine running",
echo then double-click this file again.
goto failed

:not_started
echo.
echo The app could not be started: the messages above say why.
goto failed

:missing
echo The app's container is missing after the start.
goto show_log

:unhealthy
echo.
echo The app started but does not answer.
goto show_log

:stopped
echo.
echo The app stopped - %STATE%.
goto show_log

:too_slow
echo.
echo The app is still not ready after %WAIT_SECONDS% seconds.
goto show_log

:show_log
echo.
echo The app's last messages:
docker compose logs --tail 40 app

:failed
echo.
pause
exit /b 1

:finish
echo.
pause
exit /b 0

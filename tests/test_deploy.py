"""`manage.py check --deploy` is clean with production settings."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "TESTING", "HTTPS", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(SECRET_KEY="x" * 20 + "production-secret-key-with-enough-entropy-0123456789",
               ALLOWED_HOSTS="rummikub.example.org", VAR_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "TESTING", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env["VAR_DIR"] = str(tmp_path)
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr

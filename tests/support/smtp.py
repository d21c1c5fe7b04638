"""A real mail server for the tests: aiosmtpd (tests/support/smtp_server.py) in a process of its own on a free port, storing every
message it accepts in a Maildir. Stopped by its pid and started again on the same port, it is a
faithful "mail server down". `hold` makes it keep the next sender waiting before it accepts any
recipient (the message is not accepted until `release`): a worker can be killed mid-send.
"""

from __future__ import annotations

import mailbox
import os
import signal
import socket
import subprocess
import sys
import time
from email import message_from_bytes, policy
from pathlib import Path

from tests.support.server import free_port

SCRIPT = Path(__file__).with_name("smtp_server.py")  # run as a script: see its docstring


class MailServer:
    def __init__(self, folder):
        self.folder = Path(folder)
        self.maildir = self.folder / "maildir"
        for part in ("cur", "new", "tmp"):
            (self.maildir / part).mkdir(parents=True, exist_ok=True)
        self.hold_file = self.folder / "hold"
        self.port = free_port()
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, str(SCRIPT), str(self.maildir), str(self.hold_file), str(self.port)],
            cwd=self.folder,
            env={name: value for name, value in os.environ.items() if name != "PYTHONPATH"},
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "smtp.log", "ab"),
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    if sock.recv(100).startswith(b"220"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the mail server did not answer: " + (self.folder / "smtp.log").read_text())

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def hold(self):
        self.hold_file.touch()

    def holding(self):
        return (self.folder / "held").exists()

    def release(self):
        self.hold_file.unlink(missing_ok=True)

    def messages(self):
        """Every message received so far, parsed (oldest first by Maildir order)."""
        return [
            message_from_bytes(message.as_bytes(), policy=policy.default)
            for message in mailbox.Maildir(self.maildir, factory=None, create=False)
        ]

    def settings(self):
        return {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(self.port), "EMAIL_TIMEOUT": "30"}

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.release()
        self.stop()


def text_of(message):
    return message.get_body(preferencelist=("plain",)).get_content()


def html_of(message):
    return message.get_body(preferencelist=("html",)).get_content()

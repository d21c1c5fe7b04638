"""The tests' mail server, run as a script (`python tests/support/smtp_server.py MAILDIR HOLD PORT`)
by tests/support/smtp.py: aiosmtpd storing every accepted message in a Maildir.

A script, not a module of the project: aiosmtpd imports the package `public` (atpublic), which the
project's own `public` app would shadow on the project's import path.

While the file HOLD exists, each RCPT waits (and the file `held` beside it says so) before the
message can be accepted: a sender killed then leaves nothing behind on the server.
"""

import asyncio
import sys
import threading
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox


class HoldingMailbox(Mailbox):
    def __init__(self, mail_dir, hold):
        super().__init__(mail_dir)
        self.hold = Path(hold)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        while self.hold.exists():
            self.hold.with_name("held").touch()
            await asyncio.sleep(0.05)
        envelope.rcpt_tos.append(address)
        return "250 OK"


def main():
    mail_dir, hold, port = sys.argv[1:4]
    controller = Controller(HoldingMailbox(mail_dir, hold), hostname="127.0.0.1", port=int(port))
    controller.start()
    threading.Event().wait()


if __name__ == "__main__":
    main()

"""Downloads made by a task (a round's batch PDFs, the results website): ask, run the queue, fetch.

The queue runs in the test's process (`run_queued_tasks`), so a test that asks for one needs a
committed queue: `django_db(transaction=True)`.
"""

import re

from tests.support.tasks import run_queued_tasks

PROGRESS_PAGE = re.compile(r"^/staff/[\w-]+/files/(\d+)/$")


def produced(client, url, data=None, **extra):
    """The answer to `url` once its task has run: the file when it was made (the response of its
    download), else what `url` answered (a message page, a 404, a refusal)."""
    response = client.get(url, data, **extra)
    if response.status_code != 302 or not PROGRESS_PAGE.match(response["Location"]):
        return response
    run_queued_tasks()
    return client.get(response["Location"] + "download/", **extra)

"""Contact details deleted after the tournament leave its snapshots too (SPEC §11).

When the worker blanks the entries' contact details (`services.entries.delete_old_contacts`), the
snapshots taken before still hold them. `forget_contacts` rewrites every snapshot of those
tournaments (rows, set-aside ones too, and a laptop's file copies) with the entries' contact
fields empty and `contact_deleted_at` set, as an export after the deletion writes them; the rest of
each snapshot is unchanged, so it restores as before. Backups the organiser downloaded are out
of the server's reach.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import json
from pathlib import Path

from django.conf import settings

from organiser.backups.files import TOURNAMENTS, compressed, hosted, write_atomically
from organiser.interchange import dumps
from organiser.interchange.entries import CONTACT
from organiser.models import Snapshot
from tournament.selectors import tournament_uids


def blanked(data, deleted_at):
    """Blank the contact fields of the file's entries in place; True when any was set."""
    changed = False
    for entry in data.get("entries") or []:
        if any(entry.get(key) for key in CONTACT):
            entry.update(dict.fromkeys(CONTACT, ""))
            entry["contact_deleted_at"] = entry.get("contact_deleted_at") or deleted_at
            changed = True
    return changed


def forget_contacts(tournament_ids, now):
    """Rewrite the snapshots of these tournaments without the entries' contact details; returns
    how many snapshots changed."""
    deleted_at = now.astimezone(datetime.UTC).isoformat()
    changed = 0
    for uid in tournament_uids(list(tournament_ids)):
        for row in Snapshot.objects.filter(tournament_uid=uid).only("pk", "name", "content"):
            data = json.loads(gzip.decompress(bytes(row.content)).decode("utf-8"))
            if not blanked(data, deleted_at):
                continue
            content = compressed(dumps(data))
            Snapshot.objects.filter(pk=row.pk).update(
                content=content, size=len(content), digest=hashlib.sha256(content).hexdigest()
            )
            copy = Path(settings.BACKUP_DIR) / TOURNAMENTS / str(uid) / row.name if not hosted() else None
            if copy is not None and copy.exists():
                write_atomically(copy, content)
            changed += 1
    return changed

"""Backups without a terminal (docs/venue/backups.md).

`files` keeps a tournament's snapshots as database rows under the tournament's own identity
rather than its address (the newest 50, set aside when the tournament is deleted) and, on a
laptop, a copy of each as a file in `BACKUP_DIR/tournaments/<uid>/` (written atomically);
`snapshots` queues the task that writes one, in the transaction of every verified sheet and
completed round, and never lets a failure reach the request; `restore` reads an uploaded or
stored backup (size and decompression bounded), previews it, stages it as a row for the
confirmation (one per user and tournament), and restores it in a task, replacing a tournament
of the same slug whole, in one transaction.
"""

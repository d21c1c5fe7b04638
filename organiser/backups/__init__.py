"""Backups without a terminal (README "Backup and restore").

`files` keeps a tournament's snapshots in `BACKUP_DIR/tournaments/<uid>/`, under the
tournament's own identity rather than its address (written atomically, the newest 50 kept, set
aside when the tournament is deleted); `snapshots` writes one after every verified sheet and
completed round, after the response (a background thread), and never lets a failure reach the
request; `restore` reads an uploaded or stored backup (size and decompression bounded), previews
it, stages it for the confirmation (one per user and tournament) and restores it, replacing a
tournament of the same slug whole, in one transaction.
"""

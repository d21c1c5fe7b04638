"""Backups without a terminal (README "Backup and restore").

`files` keeps a tournament's snapshots in `BACKUP_DIR/<slug>/` (written atomically, the newest
50 kept); `snapshots` writes one after every verified sheet and completed round, after the
response (a background thread), and never lets a failure reach the request; `restore` reads an
uploaded or stored backup (size and decompression bounded), previews it and restores it, replacing
a tournament of the same slug whole, in one transaction.
"""

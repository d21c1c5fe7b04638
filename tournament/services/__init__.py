"""What changes the tournament app's own rows that no other app's service owns: `files` (files made by a task)."""

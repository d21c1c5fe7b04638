"""Staff sign-in pages (`staff`) and the tablets' device links (`devices`)."""

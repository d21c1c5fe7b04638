"""Referee tablets: the round's tables (`sheets`), a score sheet (`sheet_page`, `sheets`), its
log in words (`audit_log`), players and cards (`players`) and ties (`ties`). `access` says who
may open them. Views parse, call `scoring.services` and render; the rules engine computes
every score.
"""

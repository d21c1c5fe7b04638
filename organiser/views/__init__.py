"""Organiser screens under /staff/: tournaments and settings (`tournaments`), the dashboard
(`dashboard`), players (`players`), the draw and rounds (`rounds`), results and exports
(`exports`), seasons (`seasons`).

Views parse the request, call `organiser.services` and render. Every form is a real POST form
that also works through htmx: errors come back as the form (status 200), success redirects.
"""

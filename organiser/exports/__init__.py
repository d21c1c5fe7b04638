"""Results out of the hall: the staff results as a spreadsheet and CSV, and the static results site.

- `writers/` – plain rows into files (XLSX, CSV, ZIP): no Django, no app (import-linter holds it);
- `rows.py` – the staff results (every verified sheet) as tables for the writers;
- `site.py` – the static results website, rendered with the public pages' visibility;
- `downloads.py` – every results file by its name: the download page and `export_results` use it.
"""

"""Writers that turn plain rows into files: no Django, no app (import-linter holds it).

- `tables.py` – `Table`: a titled grid of cells (text, whole numbers, date-times, empty);
  `csv_safe`: text a spreadsheet would run as a formula, made inert.
- `spreadsheet.py` – an .xlsx workbook of tables (XlsxWriter): numbers as numbers, every
  text a string cell (never a formula), header row frozen, columns sized, A4 landscape.
- `csvfile.py` – one table as CSV for Excel: UTF-8 with a BOM, formula-like text prefixed.
- `archive.py` – a .zip of files at relative paths (the static results site).

The rows come from `organiser.exports.rows` and `organiser.exports.site`, which read the database.
"""

"""The tournament software's pure-Python core, such as the seating engine (``engine.seating``).

Plain Python and the standard library only: no Django and no import from any app.  Data
in, data out: callers pass plain values (player ids, earlier rounds as lists of dicts) and
get plain values back, so this code is tested and benchmarked without a database.
"""

"""The engine: the tournament's rules, standings maths and seating, in plain Python.

No Django and no app is imported here: data in, data out, as plain values and dataclasses.
The apps translate their models to these inputs and store what comes out.
"""

"""Tests of the pure-Python engine; they run without Django."""

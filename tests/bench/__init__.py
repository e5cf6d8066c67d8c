"""Benchmarks: scripts that print figures (``make bench``). Nothing here asserts a time."""

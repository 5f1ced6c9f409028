"""Benchmarks: scripts that print a table of figures (never timed assertions in tests)."""

"""SPLIT's Discord user interface."""

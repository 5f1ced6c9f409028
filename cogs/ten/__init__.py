"""TEN's Discord user interface."""

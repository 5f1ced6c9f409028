"""Backups of the database (``python -m bot.backup``, ``python -m bot.restore``): the copies
themselves (``bot.backups.copies``) and what the two commands share (``bot.backups.cli``)."""

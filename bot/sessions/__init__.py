"""Sessions: the pure transitions and deadlines, the manager, the export (the session record
itself is ``bot.records.session``)."""

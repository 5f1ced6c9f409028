"""The daily deal in Discord: ``/daily`` and its Share button (``commands``), its add-on to a
private table, its scoring listener; the rules are ``bot.daily``'s. Loaded as
``cogs.daily.extension``."""

"""The table extension: what assembles the table core (its services, listeners, commands and
clicks) and registers it; loaded first (``bot.process.client.EXTENSIONS``)."""

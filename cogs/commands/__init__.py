"""The table's slash commands: /game, /rules and /images; opening a lobby, games in threads.
A feature's commands live in its own package (``cogs/daily``, ``cogs/learn``,
``cogs/leaderboard``, ``cogs/settings``, ``cogs/admin``)."""

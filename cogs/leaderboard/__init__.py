"""/leaderboard, /stats, /history and their page buttons (``commands``). The boards are
``bot.rankings``'. Loaded as ``cogs.leaderboard.extension``."""

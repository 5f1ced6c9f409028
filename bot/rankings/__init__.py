"""Rankings: the leaderboard reads, seasons and the standings' rebuild (the standings lines and
ratings themselves are records, ``bot.records.period_standings`` and ``bot.records.ratings``)."""

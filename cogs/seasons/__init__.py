"""Seasons in Discord: the end-of-season post (``season_announcer``, the season watcher's
notifier) and its render (``season_renders``). The seasons themselves are ``bot.rankings``'
and ``bot.automation.season_watcher``'s. Loaded as ``cogs.seasons.extension``."""

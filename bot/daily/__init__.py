"""The daily deal (``/daily``): one deal per UTC day and game, the same for every player on
every server, played once a day at a private table (``bot.records.session.SessionKind.DAILY``).

``deal``: the day, the next deal's time and the seed (an HMAC of the game and the date under a
secret only the bot holds); ``streaks``: consecutive days played; ``service``:
:class:`bot.daily.service.DailyDeals`, what the cogs call. A player's play of one day as stored
is ``bot.records.daily_play``.
"""

"""Records: what the layers of ``bot`` pass each other, below the store, which reads and
writes them (this package imports nothing of ``bot`` outside it, only ``game``).

``session`` (the session record: ``Session``, ``Seat``, its results and action rows),
``change`` (a stored change as listeners get it, and its typed origin), ``daily_play`` (a
player's play of one daily deal), ``period_standings`` (a period's standings lines, the period
arithmetic and the tally that derives them) with ``ratings`` (the OpenSkill ratings a line
carries), ``errors`` (what a player or an operator reads) and ``shards`` (which guilds a
process owns).
"""

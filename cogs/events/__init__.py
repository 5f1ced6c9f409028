"""Feature: server events, Swiss tournaments that run themselves (issue 43).

``/event new`` (``commands``) posts the event with Join, Leave and Cancel (``controls``);
``host`` is what Discord does for the service (``bot.events.service``): each table's thread
and table post, the event post's redraws, the round's tables, the standings and the final
post, worded by ``renders``.
"""

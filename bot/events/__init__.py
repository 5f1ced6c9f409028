"""Server events: Swiss tournaments that run themselves (issue 43).

``swiss`` holds the pure pairing and standings (no I/O, no clock), ``service`` the rules of an
event's life (registration, rounds, results, restart) over the store and the session manager;
what Discord shows of it is ``cogs/events``.
"""

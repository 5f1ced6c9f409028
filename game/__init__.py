"""Pure rules engines for SPLIT and TEN (no discord, no I/O, no clock, no global random).

``base`` holds the ``Engine`` protocol every game implements (events, results, seeded random),
``registry`` lists the games, ``invariants`` the error their state checks raise, and ``fast``
the one set of pydantic shortcuts both games' hot paths take. Each game is a package
(``game.split``, ``game.ten``) whose ``__all__`` is all a UI needs.
"""

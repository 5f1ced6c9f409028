"""A game-agnostic drawing toolkit: fonts, text fitting, layout model, painting, PNG, cache.

Renderers compute a :class:`~cogs.imaging.layout.Layout` (boxes saying what sits where) from a
view model, then :func:`~cogs.imaging.paint.paint` draws it. Everything is pure and
thread-safe, so renders can run in a thread pool.
"""

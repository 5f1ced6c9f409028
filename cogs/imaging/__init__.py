"""A game-agnostic drawing toolkit: fonts, glyphs, text fitting, layout model, painting, PNG,
cache.

Renderers compute a :class:`~cogs.imaging.layout.Layout` (boxes saying what sits where) from a
view model, then :func:`~cogs.imaging.paint.render_png` paints and encodes it. Everything is
pure and thread-safe, so renders can run in a thread pool (``asyncio.to_thread``), and
:class:`~cogs.imaging.cache.RenderCache` keeps recent results by (session id, version,
viewer).

The game renderers (each returns PNG bytes; ``names`` maps player ids to display names):

* SPLIT: ``cogs.split.table_image.render_table(engine.view(state, None), names)``,
  ``cogs.split.hand_image.render_hand(engine.view(state, player), names)``,
  ``cogs.split.score_image.render_scores(final_view, engine.results(state), names)``.
* TEN: ``cogs.ten.table_image.render_table(engine.view(state, None), names)``,
  ``cogs.ten.hand_image.render_hand(engine.view(state, player), names)``,
  ``cogs.ten.final_image.render_final(final_view, engine.results(state), names)``.

Each has a ``*_layout`` twin returning the layout alone (what the tests inspect). Labels are
drawn in English unless the call runs inside ``cogs.imaging.words.words_in(words)``; the
bot's wiring (when, where, in which worker) is ``cogs.pictures``.
"""

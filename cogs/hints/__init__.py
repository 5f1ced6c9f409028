"""Hints: the Hint button of a private view and the expert's suggestion it answers with
(``hint_click``), the button's place in a view (``hint_button``) and the searches under way, one
per seat and version (``hint_searches``). The extension ``cogs.hints.extension`` registers the
button with the table; a game UI words a hint (``cogs.game_ui.WordsHints``)."""

"""Reviews: a player's own review of a finished game, opened from the My review button of its
final post and replay pages (``review_pages``). The review itself is ``bot.reviews``'; a game
UI words a decision (``cogs.game_ui.WordsDecisions``). Loaded as ``cogs.reviews.extension``."""

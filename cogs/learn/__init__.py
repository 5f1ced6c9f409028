"""/learn: a guided first game on a private table (``command``), the tutor's comments drawn
above the table (``tutor_render``) and the tutors rebuilt from the action log
(``tutor_progress``). Loaded as ``cogs.learn.extension``; a game UI words the tutor
(``cogs.game_ui.Teaches``)."""

"""The short vocabulary every UI needs, translated ahead of the UI strings themselves.

Game titles stay SPLIT and TEN in every language. Contexts keep apart words that one language
says differently by role: ``button`` (an action on a button or menu), ``status`` (a state shown
to players), ``count`` (a number of things), ``heading`` (a section or field title).
Translations follow ``cogs/locales/GLOSSARY.md``.
"""

from __future__ import annotations

from cogs.i18n.messages import NNP_, NP_

# Lobby
JOIN = NP_("button", "Join")
LEAVE = NP_("button", "Leave")
START = NP_("button", "Start")
CANCEL = NP_("button", "Cancel")
ADD_BOT_EASY = NP_("button", "Add bot (easy)")
ADD_BOT_NORMAL = NP_("button", "Add bot (normal)")
REMOVE_BOT = NP_("button", "Remove bot")
HINTS_ON = NP_("button", "Hints: on")
HINTS_OFF = NP_("button", "Hints: off")
REMATCH = NP_("button", "Rematch")
HOST = NP_("heading", "Host")
PLAYERS_HEADING = NP_("heading", "Players")

# Information buttons
RULES = NP_("button", "Rules")
SCORES = NP_("button", "Scores")
TABLE = NP_("button", "Table")
MY_HAND = NP_("button", "My hand")
MY_VIEW = NP_("button", "My view")
LOG = NP_("button", "Log")
PREVIOUS = NP_("button", "Previous")
NEXT = NP_("button", "Next")
BACK = NP_("button", "Back")
MORE = NP_("button", "More")
IM_BACK = NP_("button", "I'm back")
REPLAY = NP_("button", "Replay")
HINT = NP_("button", "Hint")
MY_REVIEW = NP_("button", "My review")

# Moves (SPLIT: draw from the draw pile; TEN: draw again or stop, bid, pass, buy)
DRAW = NP_("button", "Draw")
PICK = NP_("button", "Pick")
MATCH = NP_("button", "Match")
UPGRADE = NP_("button", "Upgrade")
DISCARD = NP_("button", "Discard")
STOP = NP_("button", "Stop")
PASS = NP_("button", "Pass")
BID = NP_("button", "Bid")
BUY = NP_("button", "Buy")
PAY = NP_("button", "Pay")
SKIP = NP_("button", "Skip")
YOUR_MOVE = NP_("button", "Your move")

# States
YOUR_TURN = NP_("status", "Your turn")
TURN_OF = NP_("status", "{name}'s turn")
WAITING_FOR = NP_("status", "Waiting for {name}")
GAME_OVER = NP_("status", "Game over")
ROUND_OVER = NP_("status", "Round over")
WINNER = NP_("status", "{name} wins")
SHARED_WIN = NP_("status", "Shared win")
BOT = NP_("status", "bot")

# Things on the table (headings)
HAND = NP_("heading", "Hand")
DRAW_PILE = NP_("heading", "Draw pile")
DISCARD_ROW = NP_("heading", "Discard row")
SCORE_SHEET = NP_("heading", "Score sheet")
TABLEAU = NP_("heading", "Tableau")
MARKET = NP_("heading", "Market")
COLLECTION = NP_("heading", "Collection")
AUCTION = NP_("heading", "Auction")
ROUND_OF = NP_("heading", "Round {round} of {rounds}")

# Numbers of things
PLAYERS = NNP_("count", "{count} player", "{count} players")
CARDS = NNP_("count", "{count} card", "{count} cards")
TOKENS = NNP_("count", "{count} token", "{count} tokens")
CURRENCY_TOKENS = NNP_("count", "{count} currency token", "{count} currency tokens")
BUST_TOKENS = NNP_("count", "{count} bust token", "{count} bust tokens")
POINTS = NNP_("count", "{count} point", "{count} points")
ROUNDS = NNP_("count", "{count} round", "{count} rounds")
MATCHES = NNP_("count", "{count} match", "{count} matches")
NEGATIVE_BOXES = NNP_("count", "{count} negative box", "{count} negative boxes")
GAMES = NNP_("count", "{count} game", "{count} games")
WINS = NNP_("count", "{count} win", "{count} wins")

# Lobby, added with the expert level (kept last so the catalogs' references stay put)
ADD_BOT_EXPERT = NP_("button", "Add bot (expert)")

# SPLIT's end of laying down matches, and TEN's Draw: the same English as SPLIT's Draw, but a
# flip in TEN, so the catalogs say it with TEN's verb (GLOSSARY.md: flip)
DONE_LAYING_DOWN = NP_("button", "Done laying down")
FLIP = NP_("button TEN", "Flip")

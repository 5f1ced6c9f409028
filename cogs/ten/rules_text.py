"""TEN's rules summary for /rules and the table's Rules button.

Written from the project's rules spec (TEN.md); the bot never reads that file at run time. Keep
each page under Discord's 4096-character embed description limit.
"""

from __future__ import annotations

from cogs.game_ui import Page
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.messages import NP_
from cogs.i18n.rules_catalog import RulesPage, rules_texts

PAGES: tuple[RulesPage, ...] = (
    RulesPage(
        NP_("rules-ten-1-title", "Overview and cards"),
        NP_(
            "rules-ten-1-text",
            "1–5 players. Flip cards to build runs of numbers in four colours without going"
            " bust, bid for wilds, and buy from the market.\n\n"
            "**Cards:** number cards 1–9 in red, blue, orange and green; colour wilds (#, any"
            " number of their colour); number wilds (their number, any colour); one full wild; and"
            " currency cards worth 1–5. Fewer cards are used with fewer players (129 with 4–5, 109"
            " with 3, 89 with 1–2).\n\n"
            "**Setup:** shuffle the deck as the draw pile; everyone takes 5 currency tokens; a"
            " random player starts, play goes left. The market starts empty.",
        ),
    ),
    RulesPage(
        NP_("rules-ten-2-title", "Your turn: flip"),
        NP_(
            "rules-ten-2-text",
            "Flip cards one at a time into the public tableau; you must flip at least one, and"
            " after each you choose to **flip again** or **stop**.\n"
            "• A number card adds its number to the running total; a currency card subtracts its"
            " value (the total may go below zero).\n"
            "• **Number bust:** the total reaches 11 or more.\n"
            "• **Currency bust:** the currency cards in the tableau add up to 11 or more.\n"
            "• A **wild** never counts toward the total; it is auctioned at once, then you go on."
            " After an auction you may stop only if the tableau holds a card.\n\n"
            "When you bust you take a **bust token** and the number cards go to the market."
            " After a number bust every other player gains the currency showing; after a currency"
            " bust nobody gains anything.",
        ),
    ),
    RulesPage(
        NP_("rules-ten-3-title", "Stopping"),
        NP_(
            "rules-ten-3-text",
            "When you stop, choose one:\n"
            "• **Take the number cards** into your collection. Every other player gains the"
            " currency showing. Then you may buy one card from the market.\n"
            "• **Take the currency:** you gain the currency showing; the number cards go to the"
            " market. No buying.\n\n"
            "Nobody ever holds more than **10 currency tokens**; gains beyond that are lost. Bust"
            " tokens do not count toward the limit.",
        ),
    ),
    RulesPage(
        NP_("rules-ten-4-title", "Auctions"),
        NP_(
            "rules-ten-4-text",
            "Bidding goes once around the table, starting left of the active player, who bids"
            " last. Each player passes or bids a whole number higher than the current bid (at"
            " least 1), up to their wealth: currency tokens + 3 × bust tokens.\n\n"
            "The highest bidder takes the wild and pays with tokens of their choice. A bust token"
            " is worth 3 and gives no change; you may not pay with a token you don't need. If"
            " everybody passes, the wild is discarded.",
        ),
    ),
    RulesPage(
        NP_("rules-ten-5-title", "Buying"),
        NP_(
            "rules-ten-5-text",
            "After taking the number cards you may buy **one** market card. Its price is its"
            " number. Pay with currency tokens (1 each), bust tokens (3 each, no change) and/or"
            " cards from your collection (1 each, wilds included); spent cards leave the game.\n\n"
            "You may not buy a card identical in colour and number to a number card you already"
            " own.",
        ),
    ),
    RulesPage(
        NP_("rules-ten-6-title", "End and scoring"),
        NP_(
            "rules-ten-6-text",
            "The game ends after the turn in which the last card is flipped (that player must"
            " stop). Then every player, starting left of the final player, has one extra buy.\n\n"
            "For each colour you score 1 point per card in your **longest run** of consecutive"
            " numbers; a complete 1–9 run scores 10. Wilds are placed for you to give the best"
            " total.\n\n"
            "Highest total wins. Ties: most currency tokens, then fewest cards in collection, then"
            " a shared win. The chance that the next card busts you is public.",
        ),
    ),
    RulesPage(
        NP_("rules-ten-7-title", "Reading the table"),
        NP_(
            "rules-ten-7-text",
            "**Title:** the turn, the cards left in the draw pile, and **bust**: the chance "
            "that the next flip busts.\n**▶** marks whoever must act now: the player who flips, "
            "the bidder during an auction, the payer, the buyer.\n**Tableau:** the flipped "
            "cards, the running total and the currency showing (💰).\n**Market:** per colour, "
            "the numbers on sale (a card's price is its number; ×2: two copies).\n**A player's "
            "line:** points, 💰 currency tokens, 💥 bust tokens, their scoring runs (🟥3–7: red 3 "
            "to 7) and how many spare cards lie outside the runs.\n\n**Buttons:** {table_button}, "
            "{rules_button}, {scores_button} (every collection in full), {log_button} (the "
            "latest events, only you see them), {my_view_button} (your tokens, cards and "
            "moves).",
        ),
    ),
)


# The English pages (the message ids themselves), as /rules shows them today.
RULES: list[Page] = rules_texts(PAGES, words_for(Language.EN))

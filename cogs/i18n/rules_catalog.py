"""The /rules pages of both games as catalog messages, one title and one text per page.

The English text is the same as ``cogs/rules_text.py`` (a test compares them); each message
has a context ``rules-<game>-<page>-title`` / ``-text`` so a page's translation stays tied to
its place. Every page stays under Discord's 4096-character embed description in every language
(tested).
"""

from __future__ import annotations

from dataclasses import dataclass

from cogs.i18n.messages import NP_, Message
from cogs.i18n.words import Words

MAX_DESCRIPTION = 4096
MAX_TITLE = 256


@dataclass(frozen=True, slots=True)
class RulesPage:
    title: Message
    text: Message


# The embed title and footer around a page: "SPLIT rules — Scoring", "Page 2 of 6".
PAGE_TITLE = NP_("rules-page-title", "{game} rules — {heading}")
PAGE_FOOTER = NP_("rules-page-footer", "Page {page} of {pages}")

SPLIT_PAGES: tuple[RulesPage, ...] = (
    RulesPage(
        NP_("rules-split-1-title", "Overview and cards"),
        NP_(
            "rules-split-1-text",
            "2–6 players, three rounds. Every card is **half** of a playing card: 13 ranks (A,"
            " 2–10,"
            " J, Q, K) × 4 suits × 2 halves = 104 cards. ♠ ♣ are black, ♥ ♦ red.\n\n"
            "Lay **matches** (two halves of the same rank) to fill boxes on your score sheet, and"
            " empty your hand before the others to end the round.\n\n"
            "**Setup:** a random player deals first. Everyone gets 9 cards; the rest is the draw"
            " pile; its top card starts the face-up **discard row** (every card stays visible,"
            " newest on top). The player left of the dealer starts; play goes left.",
        ),
    ),
    RulesPage(
        NP_("rules-split-2-title", "Matches and bonuses"),
        NP_(
            "rules-split-2-text",
            "A match is two halves of the **same rank**. Its level and the bonus you get at once:\n"
            "• **Perfect** — same suit (the two halves of one card): choose another player; they"
            " mark one negative box.\n"
            "• **Strong** — same colour, different suit: you may draw the top card of the draw"
            " pile.\n"
            "• **Weak** — different colours: you may swap one match you own (the new one included)"
            " with another player's match of the same level; cards and ownership move together.\n\n"
            "Different ranks never match. Resolve each bonus before your next match or upgrade.",
        ),
    ),
    RulesPage(
        NP_("rules-split-3-title", "Your turn: 1. take"),
        NP_(
            "rules-split-3-text",
            "Either **draw** the top card of the draw pile, or **pick** any card in the discard"
            " row: you take it and every newer card on top of it.\n\n"
            "A pick is allowed only if the picked card can be used right away in a new match or an"
            " upgrade that still leaves you a card to discard. You must use it (or an identical"
            " copy) before you may discard.\n\n"
            "Drawing the **last card** of the draw pile ends the round at once.",
        ),
    ),
    RulesPage(
        NP_("rules-split-4-title", "Your turn: 2. match, 3. discard"),
        NP_(
            "rules-split-4-text",
            "**Match and upgrade** (optional, any number, any order):\n"
            "• lay two halves from your hand as a match;\n"
            "• **upgrade** any match on the table (yours or another player's) with one half from"
            " your hand so it becomes strictly stronger (weak → strong/perfect, strong → perfect)."
            " The replaced half stays covered under it; you take ownership of the match and get"
            " the bonus of its new level.\n"
            "You must always keep one card to discard.\n\n"
            "**Discard** one card on top of the discard row; your turn ends. An empty hand means"
            " you **went out** and the round ends.",
        ),
    ),
    RulesPage(
        NP_("rules-split-5-title", "End of a round"),
        NP_(
            "rules-split-5-text",
            "The round ends when someone goes out or the last card of the draw pile is drawn.\n"
            "• Each match in front of you fills one box in its rank's row.\n"
            "• Each card left in your hand fills one negative box.\n\n"
            "If a player went out on their very first turn, every player who has not had a turn"
            " yet may first lay new matches from hand (no upgrades, draws or bonuses).\n\n"
            "Whoever went out deals next (if the pile ran out, the deal passes left). All 104 cards"
            " are reshuffled; matches are cleared, score sheets stay.",
        ),
    ),
    RulesPage(
        NP_("rules-split-6-title", "Scoring"),
        NP_(
            "rules-split-6-text",
            "A rank row is worth 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78 for 1 to 12 boxes"
            " filled.\n"
            "Negative boxes cost 1 point each for the first three, 2 each for the next three, 3"
            " each for the next three, and so on (the k-th mark costs ⌈k/3⌉): 3 marks −3,"
            " 5 marks −7, 12 marks −30.\n\n"
            "After three rounds: sum of your rank rows minus your negatives. Highest score wins;"
            " equal scores share the win.",
        ),
    ),
)

TEN_PAGES: tuple[RulesPage, ...] = (
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
            " after each you choose to **draw again** or **stop**.\n"
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
)


RULES_PAGES: dict[str, tuple[str, tuple[RulesPage, ...]]] = {
    "split": ("SPLIT", SPLIT_PAGES),
    "ten": ("TEN", TEN_PAGES),
}


def rules_texts(game: str, words: Words) -> list[tuple[str, str]]:
    """``game``'s pages as (title, text) in ``words``'s language."""
    _, pages = RULES_PAGES[game]
    return [(words.text(page.title), words.text(page.text)) for page in pages]


def rules_page_title(game: str, heading: str, words: Words) -> str:
    """The embed title of one page: the game's name stays as it is (SPLIT, TEN)."""
    name, _ = RULES_PAGES[game]
    return words.text(PAGE_TITLE, game=name, heading=heading)


def rules_page_footer(page: int, pages: int, words: Words) -> str:
    """``page`` is 1-based."""
    return words.text(PAGE_FOOTER, page=words.number(page), pages=words.number(pages))

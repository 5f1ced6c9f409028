"""SPLIT's rules summary for /rules and the table's Rules button.

Written from the project's rules spec (SPLIT.md); the bot never reads that file at run time. Keep
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
    RulesPage(
        NP_("rules-split-7-title", "Reading the table"),
        NP_(
            "rules-split-7-text",
            "**Title:** the round and how many cards are left in the draw pile.\n**▶** marks "
            "whoever must act now, and what they are doing.\n**Discard row:** oldest card "
            "first; the `numbers` are row positions, the same as in your Pick list.\n**A "
            "player's line:** cards in hand, points on the score sheet (pts), negative boxes "
            "(neg.), the dealer, then their matches by level: **P** perfect, **S** strong, "
            "**W** weak. A match shows its rank once and both suits: 7♥♦ is 7♥ with "
            "7♦.\n\n**Buttons:** {my_hand_button} (your cards and moves, only you see them), "
            "{rules_button}, {scores_button} (every score sheet), {log_button} (the latest "
            "events, only you see them).",
        ),
    ),
)


# The English pages (the message ids themselves), as /rules shows them today.
RULES: list[Page] = rules_texts(PAGES, words_for(Language.EN))

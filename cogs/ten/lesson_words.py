"""What the /learn tutor says about each TEN rule (``game.ten.Lesson``): a title, a short
explanation in the rule sheet's terms, and the /rules page that holds the rule (an index
into ``rules_text.PAGES``)."""

from __future__ import annotations

from cogs.i18n.lesson_catalog import LessonWords
from cogs.i18n.messages import NP_
from game.ten import Lesson

LESSONS: dict[Lesson, LessonWords] = {
    Lesson.FLIP: LessonWords(
        NP_("lesson title", "Flipping"),
        NP_("lesson TEN", "Each number card you flip adds to the running total, each currency "
            "card takes its value off. At 11 or more you bust. Chance that the next flip busts "
            "you: {chance}."),
        1,
    ),
    Lesson.STOP: LessonWords(
        NP_("lesson title", "Stopping"),
        NP_("lesson TEN", "Stop and take the number cards into your collection (the others gain "
            "the currency showing, then you may buy), or take the currency as tokens (the "
            "number cards go to the market)."),
        2,
    ),
    Lesson.BUST: LessonWords(
        NP_("lesson title", "Busting"),
        NP_("lesson TEN", "A bust: the running total reached 11, or the currency in the tableau "
            "did. The player takes a bust token (worth 3 when paying) and the number cards go "
            "to the market."),
        1,
    ),
    Lesson.AUCTION: LessonWords(
        NP_("lesson title", "Auction"),
        NP_("lesson TEN", "A flipped wild is auctioned once around the table, the active player "
            "last. Pass, or bid more than the high bid, up to your wealth (tokens, and 3 for "
            "each bust token)."),
        3,
    ),
    Lesson.BUY: LessonWords(
        NP_("lesson title", "Buying"),
        NP_("lesson TEN", "After taking the number cards you may buy one market card; its "
            "price is its number. You may not buy a card identical to one you own."),
        4,
    ),
    Lesson.PAYMENT: LessonWords(
        NP_("lesson title", "Paying"),
        NP_("lesson TEN", "Pay with currency tokens (1 each), bust tokens (3 each, no change) "
            "or, for a market card, collection cards (1 each). A payment may not include a "
            "token or card it could do without."),
        4,
    ),
    Lesson.END: LessonWords(
        NP_("lesson title", "The end"),
        NP_("lesson TEN", "The last card of the draw pile has been flipped: that turn ends as "
            "usual, then every player has one extra buy phase, and the game is scored."),
        5,
    ),
    Lesson.RUNS: LessonWords(
        NP_("lesson title", "Scoring runs"),
        NP_("lesson TEN", "In each colour only your longest run of consecutive numbers scores, "
            "1 point per card; a complete run 1–9 scores 10."),
        5,
    ),
    Lesson.WILDS: LessonWords(
        NP_("lesson title", "Scoring wilds"),
        NP_("lesson TEN", "At scoring each wild becomes the card that gives you the highest "
            "total: a colour wild any number of its colour, a number wild its number in any "
            "colour, the full wild anything."),
        5,
    ),
}

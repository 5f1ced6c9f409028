"""What the /learn tutor says about each SPLIT rule (``game.split.Lesson``): a title, a short
explanation in the rule sheets' terms, and the /rules page that holds the rule (an index
into ``rules_text.PAGES``)."""

from __future__ import annotations

from cogs.i18n.lesson_catalog import LessonWords
from cogs.i18n.messages import NP_
from game.split import Lesson

LESSONS: dict[Lesson, LessonWords] = {
    Lesson.DRAW: LessonWords(
        NP_("lesson title", "Taking a card"),
        NP_("lesson SPLIT", "Each turn starts by taking a card: draw the top card of the draw "
            "pile, or pick a card from the discard row that you can use at once."),
        2,
    ),
    Lesson.PICK: LessonWords(
        NP_("lesson title", "Picking from the discard row"),
        NP_("lesson SPLIT", "You take the card you pick and every newer card of the row. You "
            "must use the picked card in a match or an upgrade before you discard."),
        2,
    ),
    Lesson.MATCH_WEAK: LessonWords(
        NP_("lesson title", "Weak match"),
        NP_("lesson SPLIT", "Two halves of the same rank in different colours make a weak "
            "match. Bonus: you may swap one of your matches for another player's match of "
            "the same level."),
        1,
    ),
    Lesson.MATCH_STRONG: LessonWords(
        NP_("lesson title", "Strong match"),
        NP_("lesson SPLIT", "Two halves of the same rank and colour but different suits make a "
            "strong match. Bonus: you may draw the top card of the draw pile."),
        1,
    ),
    Lesson.MATCH_PERFECT: LessonWords(
        NP_("lesson title", "Perfect match"),
        NP_("lesson SPLIT", "The two halves of one card (same rank, same suit) make a perfect "
            "match. Bonus: another player marks a negative box."),
        1,
    ),
    Lesson.UPGRADE: LessonWords(
        NP_("lesson title", "Upgrade"),
        NP_("lesson SPLIT", "Play a half onto any match to make it stronger: it covers one "
            "half, the match becomes yours and you get the bonus of its new level."),
        3,
    ),
    Lesson.PERFECT_BONUS: LessonWords(
        NP_("lesson title", "Perfect bonus"),
        NP_("lesson SPLIT", "Your perfect match lets you choose another player, who marks a "
            "negative box now. The leader is usually the best choice."),
        1,
    ),
    Lesson.STRONG_BONUS: LessonWords(
        NP_("lesson title", "Strong bonus"),
        NP_("lesson SPLIT", "Your strong match lets you draw the top card of the draw pile. If "
            "it is the last card, the round ends at once."),
        1,
    ),
    Lesson.SWAP: LessonWords(
        NP_("lesson title", "Swap"),
        NP_("lesson SPLIT", "Your weak match lets you swap one of your matches for another "
            "player's match of the same level; covered halves go with them."),
        1,
    ),
    Lesson.DISCARD: LessonWords(
        NP_("lesson title", "Discarding"),
        NP_("lesson SPLIT", "Your turn ends when you put one card on the discard row. Every "
            "card still in your hand when the round ends is a negative box."),
        3,
    ),
    Lesson.GO_OUT: LessonWords(
        NP_("lesson title", "Going out"),
        NP_("lesson SPLIT", "Discarding your last card is going out: the round ends at once and "
            "everyone scores what lies in front of them."),
        4,
    ),
    Lesson.LAYDOWN: LessonWords(
        NP_("lesson title", "Laying down after a first-turn go-out"),
        NP_("lesson SPLIT", "A player went out on their first turn: you may lay the matches in "
            "your hand (no bonuses), then press {done_button}."),
        4,
    ),
    Lesson.NEGATIVE_BOXES: LessonWords(
        NP_("lesson title", "Negative boxes"),
        NP_("lesson SPLIT", "You mark a negative box for every card left in your hand at the "
            "round's end and for every perfect bonus aimed at you. They cost more as they add "
            "up: 1 point each for the first three, 2 each for the next three, and so on."),
        5,
    ),
    Lesson.ROUND_SCORING: LessonWords(
        NP_("lesson title", "Round scoring"),
        NP_("lesson SPLIT", "Each match in front of you fills a box in its rank's row of your "
            "score sheet; a row is worth 1, 3, 6, 10… points as its boxes fill. After three "
            "rounds, the rows minus the negative row make your score."),
        5,
    ),
}

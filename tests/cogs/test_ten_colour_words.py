"""Issue 41: colour is never the only carrier of meaning in TEN's texts. Every card of a
colour is named with its colour's word (the compact table: with the letter its picture
prints, explained in the footer), in each of the four languages."""

from __future__ import annotations

import pytest

from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.ten import text
from cogs.ten.colour_words import COLOUR_WORDS, card_letter, card_name
from cogs.ten.table_text import colour_legend
from game.ten import COLOURS, RunView


@pytest.mark.parametrize("language", list(Language))
def test_every_coloured_card_says_its_colour(language: Language) -> None:
    words = words_for(language)
    for colour in COLOURS:
        word = words.text(COLOUR_WORDS[colour])
        assert word and (language is Language.EN or word != COLOUR_WORDS[colour].text)
        assert card_name(f"{colour}5", words).endswith(f"5 {word}")
        assert card_name(f"{colour}#", words).endswith(f"# {word}")
        assert card_letter(f"{colour}5").endswith(f"{colour}5")
        assert f"{colour} {word}" in colour_legend(words)
        run = RunView(colour=colour, start=3, end=5, points=3, cards=[f"{colour}{n}"
                                                                      for n in (3, 4, 5)])
        assert f" {word} 3 4 5 (3)" in (text.run_line(run, words) or "")
    assert card_name("W7", words) == "🌈7" and card_name("$3", words) == "$3"

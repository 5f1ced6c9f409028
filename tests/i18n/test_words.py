"""Words: translation, named fields, plural forms, numbers (cogs.i18n.words / catalogs)."""

from __future__ import annotations

import gettext
from datetime import date, timedelta

import pytest

from cogs.i18n import common_words as cw
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.words import Words

PLAYERS = {
    Language.EN: ("1 player", "2 players"),
    Language.ES: ("1 jugador", "2 jugadores"),
    Language.SQ: ("1 lojtar", "2 lojtarë"),
    Language.GU: ("1 ખેલાડી", "2 ખેલાડીઓ"),
}


@pytest.mark.parametrize("language", list(Language))
def test_ngettext_one_and_two_in_every_language(language: Language) -> None:
    words = words_for(language)
    one, two = PLAYERS[language]
    assert words.npgettext("count", "{count} player", "{count} players", 1) == one
    assert words.npgettext("count", "{count} player", "{count} players", 2) == two
    assert words.plural(cw.PLAYERS, 1) == one
    assert words.plural(cw.PLAYERS, 2) == two


def test_zero_is_singular_in_gujarati_and_plural_elsewhere() -> None:
    assert words_for(Language.GU).plural(cw.PLAYERS, 0) == "0 ખેલાડી"
    assert words_for(Language.SQ).plural(cw.PLAYERS, 0) == "0 lojtarë"
    assert words_for(Language.ES).plural(cw.PLAYERS, 0) == "0 jugadores"
    assert words_for(Language.EN).plural(cw.PLAYERS, 0) == "0 players"


def test_spanish_uses_its_third_form_for_exact_millions() -> None:
    words = words_for(Language.ES)
    assert words.plural(cw.PLAYERS, 1_000_000) == "1.000.000 de jugadores"
    assert words.plural(cw.PLAYERS, 1_000_001) == "1.000.001 jugadores"


def test_count_is_formatted_in_the_language() -> None:
    assert words_for(Language.EN).plural(cw.CARDS, 1234) == "1,234 cards"
    assert words_for(Language.SQ).number(1234.5) == "1\xa0234,5"
    assert words_for(Language.ES).number(2.5) == "2,5"


def test_named_fields_are_filled_after_translation() -> None:
    assert words_for(Language.ES).text(cw.TURN_OF, name="Ana") == "Turno de Ana"
    assert words_for(Language.GU).text(cw.TURN_OF, name="Ana") == "Anaનો વારો"
    assert words_for(Language.EN).text(cw.ROUND_OF, round=2, rounds=3) == "Round 2 of 3"
    assert words_for(Language.SQ).text(cw.ROUND_OF, round=2, rounds=3) == "Raundi 2 nga 3"


def test_a_missing_field_raises() -> None:
    with pytest.raises(KeyError):
        words_for(Language.ES).text(cw.TURN_OF)


def test_count_cannot_be_passed_twice() -> None:
    with pytest.raises(TypeError):
        words_for(Language.EN).plural(cw.CARDS, 2, count=3)


def test_context_separates_the_same_english_word() -> None:
    words = words_for(Language.ES)
    assert words.pgettext("button", "Draw") == "Robar"
    # Without the context the message is not in the catalog: English comes back.
    assert words.gettext("Draw") == "Draw"


def test_unknown_messages_fall_back_to_english_with_fields() -> None:
    assert words_for(Language.SQ).gettext("{name} left", name="Ben") == "Ben left"


def test_english_is_the_source_text() -> None:
    words = words_for(Language.EN)
    assert words.text(cw.MY_HAND) == "My hand"
    assert words.ngettext("{count} card", "{count} cards", 1) == "1 card"


def test_duration_in_words() -> None:
    assert words_for(Language.EN).duration(timedelta(minutes=5)) == "5 minutes"
    assert words_for(Language.ES).duration(timedelta(minutes=5)) == "5 minutos"
    assert words_for(Language.EN).duration(timedelta(seconds=90), direction=True) == (
        "in 2 minutes"
    )


def test_words_are_built_once_per_language() -> None:
    assert words_for(Language.GU) is words_for(Language.GU)
    assert words_for(Language.GU).language is Language.GU


def test_dates_in_the_language() -> None:
    day = date(2026, 12, 1)
    assert words_for(Language.EN).date(day) == "Dec 1, 2026"
    assert words_for(Language.ES).date(day) == "1 dic 2026"
    assert words_for(Language.SQ).date(day) == "1 dhj 2026"


def fresh_words(language: Language) -> tuple[gettext.NullTranslations, Words]:
    """The language's compiled catalog and a ``Words`` over it that has kept nothing yet."""
    from cogs.i18n.catalogs import compile_catalog, po_path, read_catalog
    from cogs.i18n.language import DEFAULT_LANGUAGE

    raw: gettext.NullTranslations
    if language is DEFAULT_LANGUAGE:
        raw = gettext.NullTranslations()
    else:
        raw = compile_catalog(read_catalog(po_path(language), language))
    return raw, Words(language, raw)


@pytest.mark.parametrize("language", list(Language))
def test_every_catalog_text_looked_up_once_is_what_gettext_gives(language: Language) -> None:
    """``Words`` keeps each text's template after its first use (issue 42): every message of
    the template catalog, asked for twice (learnt, then kept) through each way in, is the
    translation filled as before, a template without fields included."""
    import string

    from cogs.i18n.catalogs import TEMPLATE_PATH, read_catalog
    from cogs.i18n.messages import Message
    from cogs.i18n.words import message_fill

    raw, words = fresh_words(language)
    checked = 0
    for entry in read_catalog(TEMPLATE_PATH):
        if not entry.id or isinstance(entry.id, tuple):
            continue  # the header; plural texts are not kept
        message, context = entry.id, entry.context
        translated = raw.gettext(message) if context is None else raw.pgettext(context, message)
        names = {name for _, name, _, _ in string.Formatter().parse(translated) if name}
        fields = {name: f"<{name}>" for name in names}
        expected = message_fill(translated, fields)
        for _ in range(2):
            if context is None:
                assert words.gettext(message, **fields) == expected
            else:
                assert words.pgettext(context, message, **fields) == expected
            assert words.text(Message(message, context), **fields) == expected
        checked += 1
    assert checked > 500


def test_the_templates_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import gettext

    from cogs.i18n import words as words_module

    monkeypatch.setattr(words_module, "TEMPLATES_KEPT", 10)
    words = words_module.Words(Language.EN, gettext.NullTranslations())
    for number in range(50):
        assert words.gettext(f"text {number} {{x}}", x=number) == f"text {number} {number}"
        assert words.pgettext("c", f"more {number}") == f"more {number}"
    assert len(words._templates) == 10
    assert words.gettext("{{braces}} {x}", x=1) == "{braces} 1"
    with pytest.raises(KeyError):
        words.gettext("missing {field}")


@pytest.mark.parametrize("language", list(Language))
def test_every_plural_text_counted_once_is_what_ngettext_gives(language: Language) -> None:
    """``Words`` keeps a plural text's template and its count as written per count (issue 42,
    round 2): every plural message of the template catalog, for counts that take each form,
    asked twice (learnt, then kept), is gettext's form filled with the count in the
    language's digits, as before; a count passed as a field is refused, as before."""
    import string

    from babel.numbers import format_decimal

    from cogs.i18n.catalogs import TEMPLATE_PATH, read_catalog
    from cogs.i18n.words import message_fill

    raw, words = fresh_words(language)
    checked = 0
    for entry in read_catalog(TEMPLATE_PATH):
        if not isinstance(entry.id, tuple):
            continue
        singular, plural = entry.id[0], entry.id[1]
        context = entry.context
        for count in (0, 1, 2, 5, 21, 1000, 1234, 1_000_000):
            translated = (raw.ngettext(singular, plural, count) if context is None
                          else raw.npgettext(context, singular, plural, count))
            names = {name for _, name, _, _ in string.Formatter().parse(translated)
                     if name and name != "count"}
            fields: dict[str, object] = {name: f"<{name}>" for name in names}
            expected = message_fill(translated, {
                **fields, "count": format_decimal(count, locale=words.locale)})
            for _ in range(2):
                if context is None:
                    assert words.ngettext(singular, plural, count, **fields) == expected
                else:
                    assert words.npgettext(context, singular, plural, count,
                                           **fields) == expected
            checked += 1
    assert checked > 50
    with pytest.raises(TypeError):
        words.ngettext("{count} card", "{count} cards", 2, count=3)


def test_the_counted_texts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import gettext

    from cogs.i18n import words as words_module

    monkeypatch.setattr(words_module, "TEMPLATES_KEPT", 10)
    words = words_module.Words(Language.EN, gettext.NullTranslations())
    for number in range(50):
        assert words.ngettext("{count} card", "{count} cards", number) == (
            f"{number} card" if number == 1 else f"{number} cards")
    assert len(words._counts) == 10

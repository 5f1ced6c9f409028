"""Every refusal sentence of ``bot.records.errors`` has its catalog message in
``cogs.kit.refusal_texts``."""

from __future__ import annotations

import string

import pytest

from bot.records import errors
from cogs.i18n import Language, command_mentions, words_for
from cogs.i18n.button_names import button_names
from cogs.i18n.command_mentions import command_fields
from cogs.kit.refusal_texts import REFUSALS, refusal_text

# The module's English sentences: upper-case str constants (ECHO_MAX is a number).
SENTENCES = {
    name: value for name, value in vars(errors).items()
    if name.isupper() and isinstance(value, str)
}


def test_the_replay_refusals_are_marked_with_the_same_english() -> None:
    from bot.sessions import export
    from cogs.kit.refusal_texts import REPLAY_REFUSALS
    from cogs.rendering import replay_pages

    for name, message in REPLAY_REFUSALS.items():
        assert getattr(replay_pages, name) == message.text
    for name in ("NO_SUCH_GAME", "STILL_IN_LOBBY", "NEVER_STARTED", "STILL_RUNNING"):
        assert getattr(export, name) in REFUSALS


def fields_of(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_bot_refusal_is_marked_with_the_same_english() -> None:
    assert len(SENTENCES) >= 25
    missing = [name for name, text in SENTENCES.items() if text not in REFUSALS]
    assert missing == []
    # A button or a command named in a refusal is a field of the catalog's text, filled with
    # the label, or the command's name while no id is known.
    command_mentions.forget()
    labels = {**button_names(words_for(Language.EN)), **command_fields(words_for(Language.EN))}
    for english, message in REFUSALS.items():
        assert message.text.format_map({**labels, **{f: "{" + f + "}" for f in
                                                     fields_of(english)}}) == english


@pytest.mark.parametrize("language", [Language.ES, Language.SQ, Language.GU])
def test_refusals_are_translated_with_their_fields(language: Language) -> None:
    words = words_for(language)
    for english, message in REFUSALS.items():
        translated = words.lookup(message.text)
        assert translated is not None and translated != message.text, english
        assert fields_of(translated) == fields_of(message.text), english


def test_a_refusal_names_the_leave_button_as_it_is_labelled() -> None:
    for language in Language:
        words = words_for(language)
        said = refusal_text(words, errors.Refusal(errors.NOT_YOURSELF))
        assert button_names(words)["leave_button"] in said
        assert "{" not in said


def test_a_refusal_with_fields_in_spanish() -> None:
    spanish = words_for(Language.ES)
    full = errors.Refusal(errors.LOBBY_FULL, max_players=1200)
    assert full.message == "The lobby is full (1200 seats)." == errors.lobby_full(1200)
    assert refusal_text(spanish, full) == "La sala está llena (1.200 puestos)."
    unknown = errors.unknown_game_refusal("x" * 99)
    assert refusal_text(spanish, unknown).startswith("No hay ningún juego llamado 'xxx")
    assert len(unknown.fields["name"]) == errors.ECHO_MAX + 2  # clipped, quoted


def test_an_engine_sentence_without_a_catalog_entry_is_shown_as_it_came() -> None:
    own = errors.Refusal("You cannot upgrade with that card.")
    assert refusal_text(words_for(Language.GU), own) == "You cannot upgrade with that card."

"""Players' languages: en (source), es, sq, gu, through gettext catalogs built with Babel.

Layout: ``cogs/locales/tablebot.pot`` (template, extracted from the code) and
``cogs/locales/<lang>/LC_MESSAGES/tablebot.po`` (es, sq, gu). ``.po`` files are compiled in
memory at run time (:mod:`cogs.i18n.catalogs`); no ``.mo`` is committed. See
``cogs/i18n/README.md`` for the extract / update / check commands and the conventions.

Use: ``words = words_for(private_language(user_choice, user_locale))`` (or the Discord adapter
in :mod:`cogs.i18n.interaction`), then ``words.gettext("{name} joined", name=...)``,
``words.ngettext("{count} card", "{count} cards", n)``, ``words.text(MARKED_MESSAGE)``.
"""

from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language, private_language, public_language
from cogs.i18n.messages import N_, NN_, NNP_, NP_, Message, PluralMessage
from cogs.i18n.words import Words

__all__ = [
    "NNP_",
    "NN_",
    "NP_",
    "N_",
    "Language",
    "Message",
    "PluralMessage",
    "Words",
    "private_language",
    "public_language",
    "words_for",
]

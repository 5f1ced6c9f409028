"""The button-name check: a text that tells the reader to press a button names one that is
there, in the reader's language.

In the template (English) the name after "press" / "click" / "tap" must be a button field
(``{done_button}``, :mod:`cogs.i18n.button_names`), filled at run time from the button's own
label. In a catalog, with the fields filled from that catalog's labels, the words next to the
language's verb for pressing (after it; before it in Gujarati, whose verb comes last) must be
one of its button labels, and a quoted text that is a button label in some language must be
one in this one. ``python -m cogs.i18n check`` reports every entry that breaks this.
"""

from __future__ import annotations

import re
from string import Formatter

from babel.messages.catalog import Catalog

from cogs.i18n.button_names import BUTTON_FIELDS
from cogs.i18n.catalog_check import forms, key
from cogs.i18n.language import Language

# The verbs of pressing a button, per language; ``before`` when the name precedes the verb.
PRESS: dict[Language, re.Pattern[str]] = {
    Language.EN: re.compile(r"\b(?:press|click|tap)\s+", re.IGNORECASE),
    Language.ES: re.compile(r"\b(?:pulsa|pulsar|pulse|pulsen|haz clic en)\s+",
                            re.IGNORECASE),
    Language.SQ: re.compile(r"\b(?:shtyp|shtypni|shtypë|kliko|klikoni|klikojë)\s+",
                            re.IGNORECASE),
    Language.GU: re.compile(r"\s+(?:દબાવો|દબાવે|દબાવી|ક્લિક કરો)"),
}
BEFORE = frozenset({Language.GU})
QUOTED = re.compile(r"\*\*([^*]+)\*\*|“([^”]+)”|«([^»]+)»|\"([^\"]+)\"")
BUTTON_FIELD = re.compile(r"\{[a-z_]+_button\}")


def labels_of(catalog: Catalog, english: bool = False) -> set[str]:
    """The button labels of a catalog: its entries in a ``button…`` context."""
    found = set()
    for message in catalog:
        if message.id and (message.context or "").startswith("button"):
            text = forms(message.id)[0] if english else forms(message.string)[0]
            if text:
                found.add(text)
    return found


def _label_of_field(catalog: Catalog, field: str, english: bool) -> str:
    wanted = BUTTON_FIELDS[field]
    for message in catalog:
        if message.id == wanted.text and message.context == wanted.context:
            return forms(message.id)[0] if english else forms(message.string)[0]
    raise KeyError(field)


def _filled(text: str, catalog: Catalog, english: bool) -> str:
    fields = {name for _, name, _, _ in Formatter().parse(text) if name}
    values = {name: (_label_of_field(catalog, name, english) if name in BUTTON_FIELDS
                     else "«field»") for name in fields}
    return text.format_map(values)


def button_problems(catalog: Catalog, language: Language, every_label: set[str]) -> list[str]:
    """Entries of ``catalog`` (the template for English) that name a button wrongly;
    ``every_label`` holds the button labels of every language, English included."""
    english = language is Language.EN
    labels = labels_of(catalog, english)
    press = PRESS[language]
    problems = []
    for message in catalog:
        if not message.id or (message.context or "").startswith("button"):
            continue
        texts = forms(message.id) if english else forms(message.string)
        for index, text in enumerate(texts):
            if not text:
                continue
            unknown = [name for _, name, _, _ in Formatter().parse(text)
                       if name and name.endswith("_button") and name not in BUTTON_FIELDS]
            if unknown:
                problems.append(f"{key(message)}: form {index}: no button is called {unknown}")
                continue
            if english:
                problems += [
                    f"{key(message)}: names a button without a button field"
                    for found in press.finditer(text)
                    if not BUTTON_FIELD.match(text[found.end():].removeprefix("**"))
                ]
            filled = _filled(text, catalog, english)
            problems += [f"{key(message)}: form {index}: {problem}"
                         for problem in _named_buttons(filled, language, labels, every_label)]
    return problems


def _named_buttons(text: str, language: Language, labels: set[str],
                   every_label: set[str]) -> list[str]:
    problems = []
    for found in PRESS[language].finditer(text):
        if language in BEFORE:
            near = text[:found.start()].rstrip().removesuffix("**")
            if not any(near.endswith(label) for label in labels):
                problems.append(f"presses {near[-30:]!r}, which is no button label here")
        else:
            near = text[found.end():].removeprefix("**")
            if not any(near.startswith(label) for label in labels):
                problems.append(f"presses {near[:30]!r}, which is no button label here")
    for match in QUOTED.finditer(text):
        quoted = next(group for group in match.groups() if group is not None)
        if quoted in every_label and quoted not in labels:
            problems.append(f"quotes {quoted!r}, a button label elsewhere but not here")
    return problems

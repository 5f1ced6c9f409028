"""No cog writes English straight into a message (``python -m cogs.i18n.unwrapped`` lists
any that does)."""

from __future__ import annotations

from pathlib import Path

from cogs.i18n.unwrapped import COGS, findings, findings_in


def test_no_cog_writes_english_straight_into_a_message() -> None:
    """The whole of ``cogs/`` (every game UI included) goes through the catalogs."""
    assert [str(f) for f in findings([COGS])] == []


def test_the_finder_sees_literals_and_f_strings(tmp_path: Path) -> None:
    code = tmp_path / "sample.py"
    code.write_text(
        "async def f(ia, words, name):\n"
        "    await ia.response.send_message('You left.', ephemeral=True)\n"
        "    embed = discord.Embed(title=f'{name} — lobby', description=words.gettext('Hi'))\n"
        "    embed.add_field(name='Host', value=f'<@{name}>')\n"
        "    await refuse(ia, errors.NO_GAME)\n"
        "    raise Refusal(f'There is no {name}.')\n"
        "    Choice(name=L_('choice-name', 'on'), value='on')\n",
        encoding="utf-8",
    )
    found = sorted((f.line, f.call, f.argument) for f in findings_in(code))
    assert found == [(2, "send_message", "0"), (3, "Embed", "title"), (4, "add_field", "name"),
                     (6, "Refusal", "0")]

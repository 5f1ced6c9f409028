"""A minimal discord.py bot that exercises every route and event the stand-in offers.

It stands in for the real bot in ``test_fakediscord.py`` so the stand-in can be checked alone.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"counter:(?P<n>\d+)"):
    """A persistent button whose state lives in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None).add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count is {self.n + 1}", view=view)


class SecretView(discord.ui.View):
    @discord.ui.button(label="Reveal", custom_id="secret:reveal")
    async def reveal(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="the secret is 42", view=None)


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="pick:colour",
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {', '.join(select.values)}")


class AnswerModal(discord.ui.Modal, title="Your answer"):
    answer: discord.ui.TextInput = discord.ui.TextInput(label="Answer", custom_id="form:answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.mention} answered {self.answer}"
        )


demo = app_commands.Group(name="demo", description="Demo commands")


@demo.command(description="Answer only you can see, with a button")
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("a secret for you", view=SecretView(), ephemeral=True)


@demo.command(description="A public counter")
async def counter(interaction: discord.Interaction) -> None:
    view = discord.ui.View(timeout=None).add_item(Counter(0))
    await interaction.response.send_message("count is 0", view=view)


@demo.command(description="Think, then follow up")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("done")
    await interaction.edit_original_response(content="done (edited)")
    await interaction.followup.send("psst", ephemeral=True)


@demo.command(description="Think, then answer with a card")
async def card(interaction: discord.Interaction) -> None:
    # A "thinking" answer cannot carry the Components V2 flag (discord/discord-api-docs#7560):
    # asked for anyway, it is dropped, and the edit that replaces it sets it.
    await interaction.response.defer(thinking=True)
    layout = discord.ui.LayoutView()
    layout.add_item(discord.ui.Container(discord.ui.TextDisplay("a card")))
    await interaction.edit_original_response(view=layout)


@demo.command(description="Send and edit a channel message")
@app_commands.describe(text="What to say")
async def announce(interaction: discord.Interaction, text: str) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    message = await interaction.channel.send(text)
    await message.edit(content=f"{text}!")
    fetched = await interaction.channel.fetch_message(message.id)
    await interaction.response.send_message(f"sent {fetched.content}", ephemeral=True)


@demo.command(description="Open a form")
async def form(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(AnswerModal())


@demo.command(description="Pick colours")
async def pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick some", view=PickView(), ephemeral=True)


@demo.command(description="Try a message Discord refuses, and a route the stand-in lacks")
async def refused(interaction: discord.Interaction) -> None:
    outcomes = []
    try:
        await interaction.response.send_message("x" * 2001)
    except discord.HTTPException as err:
        outcomes.append(f"too long: {err.status}/{err.code}")
    assert interaction.channel is not None
    try:
        await interaction.channel.create_invite()  # type: ignore[union-attr]
    except discord.NotFound as err:
        outcomes.append(f"unknown route: {err.status}")
    await interaction.response.send_message("; ".join(outcomes), ephemeral=True)


@app_commands.command(description="Ping")
@app_commands.choices(
    mood=[
        app_commands.Choice(name="Happy", value="happy"),
        app_commands.Choice(name="Sad", value="sad"),
    ]
)
async def ping(interaction: discord.Interaction, mood: str = "happy", times: int = 1) -> None:
    await interaction.response.send_message(f"pong ({mood}) x{times}")


@app_commands.command(description="Autocomplete demo")
async def find(interaction: discord.Interaction, word: str) -> None:
    await interaction.response.send_message(f"found {word}", ephemeral=True)


@find.autocomplete("word")
async def find_words(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    words = ["apple", "apricot", "banana"]
    return [app_commands.Choice(name=w, value=w) for w in words if w.startswith(current)]


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild = discord.Object(id=guild_id)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        self.tree.add_command(demo, guild=self.guild)
        self.tree.add_command(find, guild=self.guild)
        self.tree.add_command(ping)
        await self.tree.sync(guild=self.guild)
        await self.tree.sync()

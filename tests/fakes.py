"""Fake discord objects for driving cogs and component handlers without a network.

Typical use::

    client = FakeClient(manager, {"count": CountUI(engine)})   # the manager and game UIs
    ia = FakeInteraction(client, user=FakeUser(1, "Ana"), channel=client.channel(100))
    await invoke(GameCog.new, cog, ia, game="count")       # a slash command
    msg = ia.response.last                                 # Sent(...) record
    ia2 = FakeInteraction(client, user=..., channel=..., message=msg.message)
    await click(ia2, "tb:lobby:join:1")                    # a component click

Every response/followup/edit is recorded as a :class:`Sent` on the interaction
(``ia.sent``) and messages edited through channels record their edits (``message.edits``).
``invoke`` and ``click`` return once the manager has published what the handler changed
(``settle``), so the listeners' channel posts and table edits are there to assert on.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from pydantic import SecretStr

from bot.automation.decision_pool import suggest
from bot.automation.hints import Hint
from bot.process.env_settings import Settings
from bot.process.token_writes import DiscordWrites
from bot.records.change import Change
from cogs.click_context import dispatcher
from cogs.clicks.table_clicks import table_controls
from cogs.commands.game_commands import GameCog
from cogs.features import Feature, TableFeatures
from cogs.game_ui import GameUI
from cogs.hints.extension import HintsCog
from cogs.kit.card_layout import CONTENT_ID, MEDIA_GALLERY, TEXT_DISPLAY, Card
from cogs.leaderboard.commands import LeaderboardCog
from cogs.reviews.extension import ReviewsCog
from cogs.table_services import TableServices
from cogs.ui_registry import GameUIs

_ids = itertools.count(900_000)


@dataclass
class FakeUser:
    id: int
    display_name: str = "player"

    @property
    def name(self) -> str:
        return self.display_name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeGuild:
    id: int = 1
    preferred_locale: discord.Locale = discord.Locale.american_english
    shard_id: int = 0


@dataclass
class Sent:
    """One recorded response: how it was made and what it contained."""

    # send_message | edit_message | defer | followup | edit_original | edit | channel_send
    kind: str
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    ephemeral: bool = False
    message: FakeMessage | None = None
    allowed_mentions: discord.AllowedMentions | None = None
    files: list[discord.File] = field(default_factory=list)  # sent, or kept by an edit
    attachments_set: bool = False  # an edit that names the message's whole set of files
    # A Components V2 card as sent (``cogs.kit.card_layout``); ``view`` then holds its
    # controls in order, as a legacy view would.
    card: discord.ui.LayoutView | Card | None = None

    @property
    def custom_ids(self) -> list[str]:
        if self.view is None:
            return []
        return [str(getattr(item, "custom_id", "")) for item in self.view.children]

    @property
    def text(self) -> str:
        """Content plus every embed's title, description and fields (a card's Text Displays),
        for assertions."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
            parts += [f"{f.name} {f.value}" for f in embed.fields]
        parts += [text for text in card_texts(self.card) if text != self.content]
        return "\n".join(parts)

    @property
    def picture(self) -> str | None:
        """The picture it shows: a card's first media, else the first embed's image."""
        if self.card is not None:
            shown = card_pictures(self.card)
            return shown[0][0] if shown else None
        return self.embeds[0].image.url if self.embeds else None

    @property
    def alt_texts(self) -> list[str]:
        """The alt texts of a card's pictures."""
        if self.card is None:
            return []
        return [alt for _, alt in card_pictures(self.card) if alt]


def card_components(card: discord.ui.LayoutView | Card) -> list[dict[str, Any]]:
    """Every component of ``card``'s payload as sent (``to_components``), nested ones after
    their parent, in order."""
    found: list[dict[str, Any]] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            found.append(component)
            walk(component.get("components", []))

    walk(card.to_components())
    return found


def card_content(card: discord.ui.LayoutView | Card) -> str | None:
    """A card's text that was its render's ``content`` (``card_layout.CONTENT_ID``)."""
    return next((str(c["content"]) for c in card_components(card)
                 if c["type"] == TEXT_DISPLAY and c.get("id") == CONTENT_ID), None)


def card_pictures(card: discord.ui.LayoutView | Card | None) -> list[tuple[str, str | None]]:
    """A card's pictures: (media url, alt text)."""
    if card is None:
        return []
    return [(item["media"]["url"], item.get("description")) for c in card_components(card)
            if c["type"] == MEDIA_GALLERY for item in c["items"]]


def card_texts(card: discord.ui.LayoutView | Card | None) -> list[str]:
    """The Text Displays of a card, in order."""
    if card is None:
        return []
    return [str(c["content"]) for c in card_components(card) if c["type"] == TEXT_DISPLAY]


@dataclass
class CardControls:
    """A card's controls in order, shown like a legacy view's ``children``."""

    children: list[Any]


def card_controls(card: discord.ui.LayoutView | Card) -> CardControls:
    if isinstance(card, Card):
        return CardControls(list(card.controls))
    return CardControls([item for item in card.walk_children()
                         if not isinstance(item, discord.ui.Container | discord.ui.ActionRow
                                           | discord.ui.TextDisplay | discord.ui.MediaGallery
                                           | discord.ui.Separator | discord.ui.Section
                                           | discord.ui.Thumbnail)])


def _shown(view: Any) -> Any:
    """What a message shows of a sent ``view``: a card's controls (None without any), else
    the view."""
    if not isinstance(view, discord.ui.LayoutView | Card):
        return view
    controls = card_controls(view)
    return controls if controls.children else None


class FakeMessage:
    def __init__(self, channel: FakeChannel | None, *, ephemeral: bool = False,
                 message_id: int | None = None) -> None:
        self.id = message_id if message_id is not None else next(_ids)
        self.channel = channel
        self.flags = discord.MessageFlags(ephemeral=ephemeral)
        self.edits: list[Sent] = []
        self.view: discord.ui.View | None = None  # the components it shows now
        self.deleted = False
        self.embeds: list[Any] = []

    @property
    def components(self) -> list[Any]:
        """Like ``discord.Message.components``: one row holding the shown components."""
        return [] if self.view is None else [_Row(list(self.view.children))]

    async def edit(self, **kwargs: Any) -> FakeMessage:
        if self.deleted:
            raise _not_found()
        self.edits.append(_record("edit", kwargs))
        if "view" in kwargs:
            self.view = _shown(kwargs["view"])
        if "embeds" in kwargs:
            self.embeds = list(kwargs["embeds"] or [])
        return self

    async def delete(self) -> None:
        if self.deleted:
            raise _not_found()
        self.deleted = True
        if self.channel is not None:
            self.channel.deleted.append(self.id)


def message_with(channel: FakeChannel | None, *custom_ids: str,
                 ephemeral: bool = False) -> FakeMessage:
    """A message that shows a button for each of ``custom_ids`` (e.g. a forged control)."""
    message = FakeMessage(channel, ephemeral=ephemeral)
    message.view = discord.ui.View(timeout=None)
    for custom_id in custom_ids:
        message.view.add_item(discord.ui.Button(custom_id=custom_id, label=custom_id[-10:]))
    return message


def _token_refused() -> discord.HTTPException:
    response = type("Response", (), {"status": 401, "reason": "Unauthorized"})()
    return discord.HTTPException(response, {"code": 50027, "message": "Invalid Webhook Token"})


def _not_found() -> discord.NotFound:
    response = type("Response", (), {"status": 404, "reason": "Not Found"})()
    return discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})


@dataclass
class _Row:
    children: list[Any]


class FakeChannel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.messages: dict[int, FakeMessage] = {}
        self.sent: list[Sent] = []  # new messages posted with channel.send (pings, summaries)
        self.deleted: list[int] = []  # ids of the messages deleted, in order

    def live(self) -> list[Sent]:
        """The posts of ``sent`` that are not deleted."""
        return [s for s in self.sent if s.message is not None and not s.message.deleted]

    async def send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        message = FakeMessage(self)
        message.view = _shown(kwargs.get("view"))
        message.embeds = list(kwargs.get("embeds") or [])
        self.messages[message.id] = message
        self.sent.append(_record("channel_send", {"content": content, **kwargs}, message))
        return message

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return self.messages.setdefault(message_id, FakeMessage(self, message_id=message_id))

    async def fetch_message(self, message_id: int) -> FakeMessage:
        return self.get_partial_message(message_id)


class ThreadHints:
    """The decision pool of the Hint button's searches (``cogs.hints.hint_click.HintPool``),
    in a worker thread: ``deadline`` seconds per search."""

    deadline = 0.4

    async def hint(self, game: str, state: Any, player: str, rng: Any) -> Hint:
        return await asyncio.to_thread(suggest, game, state, player, rng, self.deadline)


async def _no_reviews(change: Change) -> None:
    return None


class FakeClient:
    """Stands in for the bot (``bot.process.client.TableBot``): ``manager``, the ``services``
    with the game UIs (``uis``), the table cog (``cog``), and channel lookups. The controls of
    the table, hints, reviews and the leaderboard are registered as the extensions do
    (``controls``: the classes a click is dispatched to); their listeners are not subscribed."""

    def __init__(self, manager: Any, uis: dict[str, GameUI] | None = None, *,
                 settings: Settings | None = None) -> None:
        self.manager = manager
        self.uis = GameUIs(manager.engines, uis)
        self.controls: list[type[discord.ui.DynamicItem[Any]]] = []
        self.services = TableServices(self.uis,
                                      features=TableFeatures(self.add_dynamic_items))
        self.hint_pool = ThreadHints()
        features = self.services.features
        self.dispatch_control = dispatcher(self.services)
        features.register(Feature("table", controls=table_controls()))
        features.register(HintsCog(self.services, self.hint_pool).feature())
        reviews = ReviewsCog(self.services, _no_reviews).feature()
        features.register(Feature("reviews", controls=reviews.controls))
        features.register(LeaderboardCog(self.services).feature())
        self.cog = GameCog(self.services)
        # discord.py's own calls: the fakes below stand in for discord.py's objects.
        self.token_writes = DiscordWrites()
        self.channels: dict[int, FakeChannel] = {}
        self.guilds: dict[int, FakeGuild] = {}
        # The environment's server defaults (cogs.kit.server_settings): the manager's turn
        # clock.
        self.settings = settings or Settings(
            discord_token=SecretStr("fake.discord.token"), turn_minutes=manager.turn_minutes,
            _env_file=None,  # type: ignore[call-arg]
        )

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        self.controls.extend(items)

    def get_guild(self, guild_id: int) -> FakeGuild | None:
        return self.guilds.get(guild_id)

    def channel(self, channel_id: int) -> FakeChannel:
        return self.channels.setdefault(channel_id, FakeChannel(channel_id))

    def get_channel(self, channel_id: int) -> FakeChannel | None:
        return self.channels.get(channel_id)

    async def fetch_channel(self, channel_id: int) -> FakeChannel:
        return self.channel(channel_id)

    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        return self.channel(channel_id)


def _record(kind: str, kwargs: dict[str, Any], message: FakeMessage | None = None) -> Sent:
    embeds = list(kwargs.get("embeds") or [])
    if kwargs.get("embed") is not None:
        embeds.append(kwargs["embed"])
    files = list(kwargs.get("files") or kwargs.get("attachments") or [])
    if kwargs.get("file") is not None:
        files.append(kwargs["file"])
    view = kwargs.get("view")
    card = view if isinstance(view, discord.ui.LayoutView | Card) else None
    content = kwargs.get("content") if card is None else card_content(card)
    return Sent(kind, content, embeds, _shown(view),
                bool(kwargs.get("ephemeral", False)), message, kwargs.get("allowed_mentions"),
                files, "attachments" in kwargs, card)


class FakeResponse:
    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction
        self._done = False
        self.type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return self._done

    def _respond(self) -> None:
        if self._done:
            raise AssertionError("interaction answered twice")
        self._done = True

    async def send_message(self, content: str | None = None, **kwargs: Any) -> SimpleNamespace:
        self._respond()
        ia = self._interaction
        message = FakeMessage(ia.channel, ephemeral=bool(kwargs.get("ephemeral")))
        message.view = _shown(kwargs.get("view"))
        message.embeds = list(kwargs.get("embeds") or [])
        if ia.channel is not None:
            ia.channel.messages[message.id] = message
        ia.original = message
        ia.sent.append(_record("send_message", {"content": content, **kwargs}, message))
        self.type = discord.InteractionResponseType.channel_message
        return SimpleNamespace(message_id=message.id)  # as InteractionCallbackResponse

    async def edit_message(self, **kwargs: Any) -> None:
        self._respond()
        ia = self._interaction
        ia.sent.append(_record("edit_message", kwargs, ia.message))
        ia.original = ia.message  # as on Discord: the original response is the clicked message
        self.type = discord.InteractionResponseType.message_update
        if ia.message is not None:
            ia.message.edits.append(ia.sent[-1])
            if "view" in kwargs:
                ia.message.view = _shown(kwargs["view"])
            if "embeds" in kwargs:
                ia.message.embeds = list(kwargs["embeds"] or [])

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self._respond()
        self._interaction.sent.append(Sent("defer", ephemeral=ephemeral))
        self.type = (discord.InteractionResponseType.deferred_channel_message if thinking
                     else discord.InteractionResponseType.deferred_message_update)
        if not thinking:
            self._interaction.original = self._interaction.message


class FakeFollowup:
    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction

    async def send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        """A follow-up; a public one is a message of the channel too (``channel.sent``, kind
        "followup"), as on Discord."""
        ia = self._interaction
        if not ia.response.is_done():
            raise AssertionError("a follow-up before the interaction was answered")
        ia.check_token()
        ephemeral = bool(kwargs.get("ephemeral"))
        message = FakeMessage(ia.channel, ephemeral=ephemeral)
        message.view = _shown(kwargs.get("view"))
        message.embeds = list(kwargs.get("embeds") or [])
        sent = _record("followup", {"content": content, **kwargs}, message)
        ia.followups.append(message)
        thinking = ia.response.type is discord.InteractionResponseType.deferred_channel_message
        if ephemeral or thinking or ia.channel is None:
            ia.sent.append(sent)  # what the clicker alone sees, or the answer after "thinking"
        else:
            ia.channel.messages[message.id] = message
            ia.channel.sent.append(sent)
        return message

    def _own(self, message_id: int) -> FakeMessage:
        self._interaction.check_token()
        for message in self._interaction.followups:
            if message.id == message_id:
                return message
        raise _not_found()

    async def edit_message(self, message_id: int, **kwargs: Any) -> FakeMessage:
        return await self._own(message_id).edit(**kwargs)

    async def delete_message(self, message_id: int) -> None:
        await self._own(message_id).delete()


class FakeInteraction:
    """Enough of ``discord.Interaction`` for the cogs: user, guild, channel, client,
    message (for component clicks), data (``values`` for selects), permissions, response,
    followup, original_response and edit_original_response.
    """

    def __init__(
        self,
        client: FakeClient,
        *,
        user: FakeUser,
        channel: FakeChannel,
        guild: FakeGuild | None = None,
        message: FakeMessage | None = None,
        data: dict[str, Any] | None = None,
        permissions: discord.Permissions | None = None,
        locale: discord.Locale = discord.Locale.american_english,
    ) -> None:
        self.client = client
        self.user = user
        self.channel = channel
        self.guild = guild or client.guilds.setdefault(1, FakeGuild())
        self.locale = locale  # the user's Discord client language
        self.message = message
        self.data: dict[str, Any] = data or {}
        self.permissions = permissions or discord.Permissions.none()
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)
        self.sent: list[Sent] = []
        self.original: FakeMessage | None = None
        self.followups: list[FakeMessage] = []  # the messages its token made
        self.token_expired = False  # its token is refused (401/50027), as after 15 minutes
        # discord.py's per-interaction dict (bot.ops.outcomes keeps the outcome there).
        self.extras: dict[Any, Any] = {}
        self.type = (discord.InteractionType.component if message is not None
                     else discord.InteractionType.application_command)

    @property
    def channel_id(self) -> int:
        return self.channel.id

    @property
    def guild_id(self) -> int:
        return self.guild.id

    @property
    def guild_locale(self) -> discord.Locale:
        return self.guild.preferred_locale

    def is_guild_integration(self) -> bool:
        """The unit tests' server installed the app (the bot is in its channels)."""
        return True

    @property
    def last(self) -> Sent:
        return self.sent[-1]

    def check_token(self) -> None:
        if self.token_expired:
            raise _token_refused()

    async def original_response(self) -> FakeMessage:
        assert self.original is not None, "nothing was sent"
        return self.original

    async def edit_original_response(self, **kwargs: Any) -> FakeMessage:
        self.check_token()
        message = await self.original_response()
        if message.deleted:
            raise _not_found()
        self.sent.append(_record("edit_original", kwargs, message))
        message.edits.append(self.sent[-1])
        if "view" in kwargs:
            message.view = _shown(kwargs["view"])
        if "embeds" in kwargs:
            message.embeds = list(kwargs["embeds"] or [])
        return message

    async def delete_original_response(self) -> None:
        self.check_token()
        await (await self.original_response()).delete()


async def invoke(command: Any, cog: Any, interaction: FakeInteraction, **params: Any) -> None:
    """Run an app command's callback as Discord would (``GameCog.new``, ``GameCog.rules``):
    after its cog's check, which makes the interaction's context."""
    await discord.utils.maybe_coroutine(cog.interaction_check, interaction)
    await command.callback(cog, interaction, **params)
    await settle(interaction)


async def settle(interaction: FakeInteraction) -> None:
    """Wait until the listeners have every change the handler made (see the module doc)."""
    await interaction.client.manager.settle()


async def click(
    interaction: FakeInteraction, custom_id: str, values: list[str] | None = None
) -> None:
    """Dispatch a component click the way discord.py does for registered DynamicItems."""
    if values is not None:
        interaction.data = {"custom_id": custom_id, "values": values}
    for factory in interaction.client.controls:
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)  # type: ignore[attr-defined]
        if match:
            base: discord.ui.Item[Any]
            if values is None:
                base = discord.ui.Button(custom_id=custom_id)
            else:
                base = discord.ui.Select(custom_id=custom_id)
            item = await factory.from_custom_id(interaction, base, match)  # type: ignore[arg-type]
            await item.callback(interaction)  # type: ignore[arg-type]
            await settle(interaction)
            return
    raise AssertionError(f"no dynamic item handles {custom_id!r}")

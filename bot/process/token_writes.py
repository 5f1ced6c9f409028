"""The writes made with an interaction's token, without discord.py's message objects around
them (issue 42).

Every write a click carries goes through its token: the callback that answers it, edits and
deletions of its original response and of its follow-ups, and new follow-ups (3.09 per stored
TEN action). discord.py makes each of them through ``Interaction.response``,
``Interaction.edit_original_response`` and a ``Webhook`` built anew at every
``Interaction.followup`` access, and turns each answer into an ``InteractionMessage`` or a
``WebhookMessage`` (author, components, embeds, timestamps) that the bot never reads: it reads
a new message's id, nothing else. Here each write is:

* the payload built by discord.py's own builders, once (``interaction_message_response_params``
  for a callback, ``handle_message_parameters`` for a webhook route: the same JSON body or
  multipart form, files and ``allowed_mentions`` merging as discord.py's);
* sent on the bot's own HTTP/1.1 wire (``bot.process.token_requests`` over
  ``bot.process.http1``: keep-alive connections, the request written at once), which keeps
  every guarantee discord.py's webhook adapter gave: the per-token lock and its wait once
  Discord says a bucket is empty (``X-RateLimit-Remaining: 0``), the 429 retry after
  ``retry_after`` (up to 5 tries), the retry after a 5xx, the mapping of errors to
  ``Forbidden``/``NotFound``/``HTTPException``/``DiscordServerError``, the same JSON or
  multipart body; the REST trace (``bot.ops.rest_trace``) counts every attempt;
* addressed by URL strings made once per interaction (:class:`TokenRoutes`, kept in the
  interaction's ``extras``), the query strings discord.py sends written into them (no
  per-call ``Route``, ``params`` dict or query encoding);
* answered with the ids only: a new follow-up's id (``discord.Object``), a callback's message
  id; the callback that updates the clicked message does not ask for its resource at all
  (``with_response`` is optional: Discord then answers 204,
  https://discord.com/developers/docs/interactions/receiving-and-responding#create-interaction-response).

What discord.py does besides the request is kept, in its order: a second callback raises
``InteractionResponded``, an update callback on an interaction that is not a component's or a
modal's is not sent, the response type is set (``InteractionResponse.is_done``/``type``), a
view's message is untracked before an update, an ephemeral dispatchable view gets the
15-minute timeout, and a view that is not finished is stored for dispatch exactly where
discord.py stores it.

Uses discord.py internals (the two payload builders, the interaction's ``_state``);
``tests/bot/test_token_writes.py`` fails when their shape changes, and checks that each write
sends what discord.py's own call sends.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import interaction_message_response_params

from bot.process.token_requests import TokenRequests, TokenRoute

ROUTES = "tablebot.token_routes"  # Interaction.extras: its TokenRoutes
UPDATE_TYPES = (discord.InteractionType.component, discord.InteractionType.modal_submit)
EPHEMERAL_VIEW_TIMEOUT = 15 * 60.0  # discord.py's timeout for an ephemeral message's view

Interaction = discord.Interaction[Any]


class TokenRoutes:
    """The routes of one interaction's token, their URLs made once (a route is made per write:
    the one it takes)."""

    __slots__ = ("_app_id", "_base", "_callback", "_id", "_original", "_token")

    def __init__(self, interaction: Interaction) -> None:
        base = Route.BASE
        self._id, self._app_id, self._token = \
            interaction.id, interaction.application_id, interaction.token
        self._callback = f"{base}/interactions/{self._id}/{self._token}/callback"
        self._base = f"{base}/webhooks/{self._app_id}/{self._token}"
        self._original = f"{self._base}/messages/@original"

    def callback(self, *, answered: bool) -> TokenRoute:
        """The callback; ``answered``: asking for its resource (``with_response``), as
        discord.py always does."""
        url = f"{self._callback}?with_response=1" if answered else self._callback
        return TokenRoute("POST", url, self._id, self._token)

    def original(self, method: str) -> TokenRoute:
        """The original response's edit or deletion (no query, as discord.py sends them)."""
        return TokenRoute(method, self._original, self._app_id, self._token)

    def followup(self, *, with_components: bool) -> TokenRoute:
        """A new follow-up: ``wait`` (always, for an application's webhook) and
        ``with_components`` (whether a view is given), as Webhook.send sends them."""
        return TokenRoute("POST", f"{self._base}?wait=1&with_components={int(with_components)}",
                          self._app_id, self._token)

    def message(self, method: str, message_id: int, with_components: bool | None) -> TokenRoute:
        """A follow-up's edit (``with_components`` as Webhook.edit_message sends it) or
        deletion (None: no query)."""
        url = f"{self._base}/messages/{message_id}"
        if with_components is not None:
            url = f"{url}?with_components={int(with_components)}"
        return TokenRoute(method, url, self._app_id, self._token)


def routes_of(interaction: Interaction) -> TokenRoutes:
    routes = interaction.extras.get(ROUTES)
    if routes is None:
        routes = interaction.extras[ROUTES] = TokenRoutes(interaction)
    return routes


def _store(interaction: Interaction, view: Any, message_id: int | None) -> None:
    """discord.py's step after a write with a view: a dispatchable view that is not finished
    is stored for its clicks (the bot's controls are dynamic items, served without it)."""
    if view and not view.is_finished() and view.is_dispatchable():
        interaction._state.store_view(view, message_id)


class TokenWrites(Protocol):
    """The writes made with an interaction's token (``TableBot.token_writes``): each is the
    discord.py call its docstring names, answered with the ids the bot reads."""

    async def update_message(self, interaction: Interaction, **kwargs: Any) -> None: ...

    async def send_message(self, interaction: Interaction, *, ephemeral: bool = False,
                           **kwargs: Any) -> int | None: ...

    async def edit_original(self, interaction: Interaction, **kwargs: Any) -> None: ...

    async def delete_original(self, interaction: Interaction) -> None: ...

    async def send_followup(self, interaction: Interaction, *, ephemeral: bool = False,
                            **kwargs: Any) -> discord.abc.Snowflake: ...

    async def edit_followup(self, interaction: Interaction, message_id: int,
                            **kwargs: Any) -> None: ...

    async def delete_followup(self, interaction: Interaction, message_id: int) -> None: ...


class DiscordWrites:
    """The same writes through discord.py's own calls (its message objects built and dropped):
    the reference :class:`LeanWrites` is tested against, and what an interaction that is not
    discord.py's (the unit tests' fakes) is written with."""

    async def update_message(self, interaction: Interaction, **kwargs: Any) -> None:
        await interaction.response.edit_message(**kwargs)

    async def send_message(self, interaction: Interaction, *, ephemeral: bool = False,
                           **kwargs: Any) -> int | None:
        sent = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
        return getattr(sent, "message_id", None)

    async def edit_original(self, interaction: Interaction, **kwargs: Any) -> None:
        await interaction.edit_original_response(**kwargs)

    async def delete_original(self, interaction: Interaction) -> None:
        await interaction.delete_original_response()

    async def send_followup(self, interaction: Interaction, *, ephemeral: bool = False,
                            **kwargs: Any) -> discord.abc.Snowflake:
        sent: discord.abc.Snowflake = await interaction.followup.send(
            wait=True, ephemeral=ephemeral, **kwargs)
        return sent

    async def edit_followup(self, interaction: Interaction, message_id: int,
                            **kwargs: Any) -> None:
        await interaction.followup.edit_message(message_id, **kwargs)

    async def delete_followup(self, interaction: Interaction, message_id: int) -> None:
        await interaction.followup.delete_message(message_id)


class LeanWrites:
    """The token writes made here: what :class:`DiscordWrites` makes, without its objects, on
    ``requests`` (the client's wire)."""

    __slots__ = ("requests",)

    def __init__(self, requests: TokenRequests) -> None:
        self.requests = requests

    async def _request(self, route: TokenRoute, params: Any) -> Any:
        if params is None:
            return await self.requests.request(route)
        if params.files:
            return await self.requests.request(route, multipart=params.multipart,
                                               files=params.files)
        return await self.requests.request(route, payload=params.payload)

    # --- the callback ---------------------------------------------------------------------

    async def update_message(self, interaction: Interaction, **kwargs: Any) -> None:
        """``interaction.response.edit_message(**kwargs)``: the click answered by editing the
        clicked message; Discord's answer is not asked for (the message is the clicked one)."""
        response = interaction.response
        if response._response_type:
            raise discord.InteractionResponded(interaction)
        if interaction.type not in UPDATE_TYPES:
            return
        message = interaction.message
        message_id = message.id if message is not None else None
        view = kwargs.get("view", MISSING)
        state = interaction._state
        if view is not MISSING and message_id is not None:
            state.prevent_view_updates_for(message_id)
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.message_update.value,
            previous_allowed_mentions=state.allowed_mentions, **kwargs)
        await self._request(routes_of(interaction).callback(answered=False), params)
        response._response_type = discord.InteractionResponseType.message_update
        if view is not MISSING:
            _store(interaction, view, message_id)

    async def send_message(self, interaction: Interaction, *, ephemeral: bool = False,
                           **kwargs: Any) -> int | None:
        """``interaction.response.send_message(ephemeral=..., **kwargs)``: the click answered by a
        new message; its id (the callback's ``response_message_id``), None when Discord gives
        none."""
        response = interaction.response
        if response._response_type:
            raise discord.InteractionResponded(interaction)
        state = interaction._state
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.channel_message.value,
            previous_allowed_mentions=state.allowed_mentions,
            flags=discord.MessageFlags(ephemeral=True) if ephemeral else MISSING, **kwargs)
        data = await self._request(routes_of(interaction).callback(answered=True), params)
        response._response_type = discord.InteractionResponseType.channel_message
        answered = data.get("interaction") if isinstance(data, dict) else None
        raw = answered.get("response_message_id") if answered else None
        message_id = int(raw) if raw is not None else None
        view = kwargs.get("view", MISSING)
        if view is not MISSING and not view.is_finished():
            if ephemeral and view.timeout is None:
                view.timeout = EPHEMERAL_VIEW_TIMEOUT
            state.store_view(view, message_id)
        return message_id

    # --- the webhook routes ---------------------------------------------------------------

    async def edit_original(self, interaction: Interaction, **kwargs: Any) -> None:
        """``interaction.edit_original_response(**kwargs)``, its answer not made a message."""
        state = interaction._state
        view = kwargs.get("view", MISSING)
        with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions,
                                       **kwargs) as params:
            data = await self._request(routes_of(interaction).original("PATCH"), params)
        if view and not view.is_finished() and view.is_dispatchable():
            state.store_view(view, int(data["id"]))

    async def delete_original(self, interaction: Interaction) -> None:
        """``interaction.delete_original_response()``."""
        await self._request(routes_of(interaction).original("DELETE"), None)

    async def send_followup(self, interaction: Interaction, *, ephemeral: bool = False,
                            **kwargs: Any) -> discord.Object:
        """``interaction.followup.send(wait=True, ephemeral=..., **kwargs)``: the new message's id
        (as a ``discord.Object``), not the message."""
        state = interaction._state
        view = kwargs.get("view", MISSING)
        if view is not MISSING and ephemeral and view.timeout is None and view.is_dispatchable():
            view.timeout = EPHEMERAL_VIEW_TIMEOUT
        if kwargs.get("content", MISSING) is None:
            kwargs["content"] = MISSING
        route = routes_of(interaction).followup(with_components=view is not MISSING)
        with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions,
                                       flags=discord.MessageFlags(ephemeral=True) if ephemeral
                                       else MISSING, **kwargs) as params:
            data = await self._request(route, params)
        sent = discord.Object(int(data["id"]))
        _store(interaction, view, sent.id)
        return sent

    async def edit_followup(self, interaction: Interaction, message_id: int, **kwargs: Any) -> None:
        """``interaction.followup.edit_message(message_id, **kwargs)``, its answer not made a
        message."""
        state = interaction._state
        view = kwargs.get("view", MISSING)
        route = routes_of(interaction).message("PATCH", message_id, bool(view))
        with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions,
                                       **kwargs) as params:
            await self._request(route, params)
        _store(interaction, view, message_id)

    async def delete_followup(self, interaction: Interaction, message_id: int) -> None:
        """``interaction.followup.delete_message(message_id)``."""
        await self._request(routes_of(interaction).message("DELETE", message_id, None), None)


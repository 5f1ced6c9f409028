"""The season watcher's notifier (``bot.automation.season_watcher``): the end-of-season post in
the server's season channel, in the server's language, then the champion role.

A channel that is gone or closed to the bot gets no post (logged, not retried: the watcher
marks the season done); an error Discord may get over (a 5xx, a timeout) is raised, so the
watcher retries after its claim timeout. The champion role is given only when the bot has
Manage Roles and the role is below its highest one, checked again at award time (roles move
after ``/config``); anything else is a logged skip, never an error of the post. The role
moves on: the previous season's champions who are no champion now lose it (Discord's "Remove
Guild Member Role", https://discord.com/developers/docs/resources/guild#remove-guild-member-role;
without the members intent the bot cannot list who holds a role, so it goes by its own record of
champions).

A DM or a group DM (``cogs.kit.places``: a chat, its own place) has no season channel and no
role, and the bot cannot write in it: its season's end is owed to the chat's next click
(``MessageRoutes.owe``), which carries the post as one of its follow-ups. That promise lives in
the process's memory: a restart before anyone clicks there drops it, and the season's final
board stays one ``/leaderboard season:`` away, as everywhere.
"""

from __future__ import annotations

import functools
import logging

import discord

from bot.automation.season_watcher import SeasonEnd
from bot.ops.request_budget import RequestBudget
from bot.process.client import TableBot
from cogs.i18n.interaction import server_words
from cogs.kit.message_routes import Cause, MessageRoutes
from cogs.seasons.season_renders import season_end_render

log = logging.getLogger(__name__)


class SeasonAnnouncer:
    def __init__(self, client: TableBot, budget: RequestBudget,
                 routes: MessageRoutes | None = None) -> None:
        self.client = client
        # Every request here counts against Discord's global limit: each waits its turn.
        self._budget = budget
        self._routes = routes  # a chat's post rides on its next click (None: not posted)

    async def season_ended(self, end: SeasonEnd) -> int | None:
        message_id = await self.post(end)
        await self.award(end)  # with or without a post (giving a role twice changes nothing)
        return message_id

    async def post(self, end: SeasonEnd) -> int | None:
        """The post in the season channel; its id, or None when none could be made (in a
        chat: owed to its next click)."""
        if end.channel_id is None:
            if self._routes is not None and await self._is_chat(end.guild_id):
                self._owe(self._routes, end)
            return None
        titles = {key: engine.title for key, engine in self.client.manager.engines.items()}
        words = await server_words(self.client, end.guild_id)
        render = season_end_render(end, titles, words)
        try:
            channel = self.client.get_channel(end.channel_id) or await self._budget.run(
                functools.partial(self.client.fetch_channel, end.channel_id))
            send = getattr(channel, "send", None)
            guild = getattr(channel, "guild", None)
            if send is None or (guild is not None and guild.id != end.guild_id):
                log.warning("guild %s: the season channel %s is not one of its text channels;"
                            " season %s not posted", end.guild_id, end.channel_id,
                            end.season.name)
                return None
            message = await self._budget.run(functools.partial(
                send, allowed_mentions=discord.AllowedMentions.none(), **render.send_kwargs()))
        except (discord.Forbidden, discord.NotFound):
            log.warning("guild %s: the season channel %s is gone or closed to the bot; season"
                        " %s not posted", end.guild_id, end.channel_id, end.season.name)
            return None
        return message.id

    async def _is_chat(self, place_id: int) -> bool:
        """Whether ``place_id`` is a DM's or a group DM's (its games' channel is the place)."""
        rows = await self.client.manager.store.query(
            "SELECT 1 FROM sessions WHERE guild_id = ? AND channel_id = ? LIMIT 1",
            [place_id, place_id])
        return bool(rows)

    def _owe(self, routes: MessageRoutes, end: SeasonEnd) -> None:
        """The chat's next click carries the season's post (drawn then, in its language)."""
        async def carry(cause: Cause) -> None:
            titles = {key: engine.title for key, engine in self.client.manager.engines.items()}
            words = await server_words(self.client, end.guild_id)
            render = season_end_render(end, titles, words)
            await routes.follow_up(end.guild_id, cause,
                                   allowed_mentions=discord.AllowedMentions.none(),
                                   **render.send_kwargs())

        routes.owe(end.guild_id, f"season {end.season.name}", carry)

    async def award(self, end: SeasonEnd) -> int:
        """Give the champion role to each champion and take it from the former ones; returns
        how many were given."""
        if end.role_id is None or not (end.champions or end.former):
            return 0
        reason = role_refusal(self.client.get_guild(end.guild_id), end.role_id)
        if reason is not None:
            log.warning("guild %s: the champion role %s was not given (%s)", end.guild_id,
                        end.role_id, reason)
            return 0
        given = 0
        for game, user_id in sorted(end.champions.items()):
            try:
                await self._budget.run(functools.partial(
                    self.client.http.add_role, end.guild_id, int(user_id), end.role_id,
                    reason=f"Season {end.season.name} champion of {game}",
                ))
                given += 1
            except discord.HTTPException as error:
                log.warning("guild %s: the champion role %s was not given to %s (%s %s)",
                            end.guild_id, end.role_id, user_id, error.status, error.code)
        for user_id in end.former:
            try:
                await self._budget.run(functools.partial(
                    self.client.http.remove_role, end.guild_id, int(user_id), end.role_id,
                    reason=f"Season {end.season.name}: champion no longer",
                ))
            except discord.HTTPException as error:
                log.warning("guild %s: the champion role %s was not taken from %s (%s %s)",
                            end.guild_id, end.role_id, user_id, error.status, error.code)
        return given


def role_refusal(guild: discord.Guild | None, role_id: int) -> str | None:
    """Why the bot cannot give role ``role_id`` in ``guild`` (for the log; None: it can)."""
    if guild is None:
        return "the server is not known to this process"
    role = guild.get_role(role_id)
    if role is None:
        return "the role no longer exists"
    if role.is_default() or role.managed:
        return "the role is @everyone or managed"
    me = guild.me
    if not me.guild_permissions.manage_roles:
        return "the bot lacks Manage Roles"
    if role >= me.top_role:
        return "the role is not below the bot's highest role"
    return None

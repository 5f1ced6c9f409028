"""Application commands: bulk-overwrite storage, and slash payloads built from the synced schema."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.playground.fakediscord.discord_limits import FieldError
from bot.playground.fakediscord.model import FakeChannel, FakeUser

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


@dataclass(frozen=True)
class Refusal:
    """Refuse a command registration that holds ``command`` (and, nested in it, the option path
    ``option``, e.g. "export session") as Discord refuses a bad field: 400, 50035, and the
    field's path by index in the registration sent (``1.options.0.options.0.max_value``)."""

    command: str
    field: str
    option: str = ""
    code: str = "NUMBER_TYPE_MAX"
    message: str = "int53 out of range"

    def error_for(self, registration: list[dict[str, Any]]) -> FieldError | None:
        """The error for this registration; None when it lacks the command or option."""
        for index, command in enumerate(registration):
            if command.get("name") != self.command:
                continue
            path: list[str | int] = [index]
            options = command.get("options") or []
            for name in self.option.split():
                found = next((i for i, o in enumerate(options) if o.get("name") == name), None)
                if found is None:
                    return None
                path += ["options", found]
                options = options[found].get("options") or []
            return FieldError((*path, self.field), self.code, self.message)
        return None


def overwrite(
    world: Any, guild_id: int | None, commands: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Replace one scope's commands; a name keeps its id across syncs, as on Discord."""
    stored = []
    for command in commands:
        key = (guild_id, command["name"], int(command.get("type", 1)))
        command_id = world._command_ids.setdefault(key, world.ids.next())
        entry = {
            **command,
            "id": str(command_id),
            "application_id": str(world.app_id),
            "type": int(command.get("type", 1)),
            "description": command.get("description", ""),
            "version": str(world.ids.next()),
            "default_member_permissions": command.get("default_member_permissions"),
            "nsfw": command.get("nsfw", False),
        }
        if guild_id is not None:
            entry["guild_id"] = str(guild_id)
        stored.append(entry)
    world.commands[guild_id] = stored
    world.command_syncs += 1
    world.notify()
    return stored


def find_command(world: Any, name: str) -> dict[str, Any]:
    """The chat-input command called ``name``: a guild command wins over a global one."""
    for scope in (world.guild_id, None):
        for command in world.commands.get(scope, []):
            if command["name"] == name and command["type"] == 1:
                return command
    synced = sorted(c["name"] for cmds in world.commands.values() for c in cmds)
    raise LookupError(f"no synced slash command /{name}; synced: {synced}")


def build_slash_data(
    world: Any,
    path: str,
    options: dict[str, Any],
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND (or autocomplete) interaction for ``/path``."""
    names = path.split()
    command = find_command(world, names[0])
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    resolved: dict[str, dict[str, Any]] = {}
    schema = command.get("options") or []
    container = data
    for sub in names[1:]:
        option = _schema_option(schema, sub, {SUB_COMMAND, SUB_COMMAND_GROUP}, path)
        nested: dict[str, Any] = {"name": sub, "type": option["type"], "options": []}
        container.setdefault("options", []).append(nested)
        container = nested
        schema = option.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        raise ValueError(f"/{path} is a group; name a subcommand")
    values = []
    for name, value in options.items():
        option = _schema_option(schema, name, None, path)
        encoded = _encode(world, option, value, resolved, autocomplete=name == focused)
        entry: dict[str, Any] = {"name": name, "type": option["type"], "value": encoded}
        if name == focused:
            entry["focused"] = True
        values.append(entry)
    missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
    if missing and focused is None:
        raise ValueError(f"/{path} needs option(s) {missing}")
    container["options"] = values
    if resolved:
        data["resolved"] = resolved
    return data


def _schema_option(
    schema: list[dict[str, Any]], name: str, types: set[int] | None, path: str
) -> dict[str, Any]:
    for option in schema:
        if option["name"] == name and (types is None or option["type"] in types):
            return option
    raise ValueError(f"/{path} has no option {name!r}; it has {[o['name'] for o in schema]}")


def _encode(
    world: Any,
    option: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
    *,
    autocomplete: bool,
) -> Any:
    kind = option["type"]
    if kind == USER or (kind == MENTIONABLE and isinstance(value, FakeUser)):
        assert isinstance(value, FakeUser), f"option {option['name']} takes a FakeUser"
        resolved.setdefault("users", {})[str(value.id)] = world.user_json(value)
        member = world.member_json(value, with_user=False)
        member["permissions"] = str(world.permissions_of(value))
        resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if kind == CHANNEL:
        assert isinstance(value, FakeChannel), f"option {option['name']} takes a FakeChannel"
        channel = world.channel_json(value)
        channel["permissions"] = str(world.permissions_of(world.bot_user))
        resolved.setdefault("channels", {})[str(value.id)] = channel
        return str(value.id)
    if kind == ROLE and isinstance(value, int) and not autocomplete:
        role = world.role_json(value)
        if role is None:
            raise LookupError(f"no role {value} in the guild")
        resolved.setdefault("roles", {})[str(value)] = role
        return str(value)
    if kind in (ROLE, MENTIONABLE):
        return str(value)
    if autocomplete:
        return str(value)
    if kind == INTEGER:
        value = int(value)
    elif kind == NUMBER:
        value = float(value)
    elif kind == BOOLEAN:
        value = bool(value)
    else:
        value = str(value)
    choices = [c["value"] for c in option.get("choices") or []]
    if choices and value not in choices:
        raise ValueError(f"option {option['name']}={value!r} is not one of {choices}")
    return value


def forged_slash_data(
    world: Any,
    path: str,
    options: dict[str, Any],
    *,
    types: dict[str, int] | None = None,
    resolved: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The ``data`` of a FORGED slash command (what a client other than Discord's could send):
    the synced command's id and subcommand path, then ``options`` exactly as given, unchecked.
    An option's type is ``types[name]``, else the synced option's type, else STRING; values
    are sent as they are (a string for an integer, a choice that is not one, an id of a user
    or a channel Discord never resolved); ``resolved`` goes as given (none by default)."""
    names = path.split()
    command = find_command(world, names[0])
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    schema = command.get("options") or []
    container = data
    for sub in names[1:]:
        option = _schema_option(schema, sub, {SUB_COMMAND, SUB_COMMAND_GROUP}, path)
        nested: dict[str, Any] = {"name": sub, "type": option["type"], "options": []}
        container.setdefault("options", []).append(nested)
        container = nested
        schema = option.get("options") or []
    known = {o["name"]: o["type"] for o in schema}
    container["options"] = [
        {"name": name, "type": (types or {}).get(name, known.get(name, STRING)), "value": value}
        for name, value in options.items()
    ]
    if resolved:
        data["resolved"] = resolved
    return data

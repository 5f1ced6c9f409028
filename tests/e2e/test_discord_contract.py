"""Issue 27: the stand-in holds a bot to Discord's contract (``fakediscord/contract.py``).

Requests are sent as a bot would (bot token, JSON or multipart), and each one that breaks the
spec or the limits beside it is answered 400/50035 with the field's path in Discord's
``errors`` shape, and recorded (taken here, so these tests pass).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.playground.fakediscord import FakeDiscord, contract
from bot.playground.fakediscord.discord_limits import valid_name
from bot.playground.fakediscord.rest import API, RestApi

INT53_MAX = 2**53 - 1


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    async with fake:
        yield fake


async def _send(
    fd: FakeDiscord, method: str, route: str, body: Any = None, *, multipart: bool = False,
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fd.token}"}
    url = f"{fd.base_url}{API}{route}"
    async with aiohttp.ClientSession(headers=headers) as session:
        if multipart:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body), content_type="application/json")
            form.add_field("files[0]", b"png", filename="table.png", content_type="image/png")
            sent = session.request(method, url, data=form)
        else:
            sent = session.request(method, url, json=body)
        async with sent as response:
            text = await response.text()
            return response.status, json.loads(text) if text else None


def _at(errors: dict[str, Any], dotted: str) -> list[dict[str, Any]]:
    node: Any = errors
    for part in dotted.split("."):
        node = node[part]
    return list(node["_errors"])


async def _refused(
    fd: FakeDiscord, method: str, route: str, body: Any, path: str, code: str, **kw: Any
) -> None:
    status, answer = await _send(fd, method, route, body, **kw)
    assert status == 400 and answer["code"] == 50035, answer
    assert [e["code"] for e in _at(answer["errors"], path)] == [code], answer
    [violation] = fd.take_violations()
    assert violation.paths() == [path], violation
    assert violation.method == method and route in violation.path


def _command(session_max: int, localisations: dict[str, str] | None = None) -> list[Any]:
    session = {"type": 4, "name": "session", "description": "Session id", "min_value": 1,
               "max_value": session_max}
    if localisations is not None:
        session["name_localizations"] = localisations
    return [
        {"name": "rules", "description": "The rules", "type": 1},
        {"name": "game", "description": "Play", "type": 1, "options": [
            {"type": 1, "name": "export", "description": "Export a game", "options": [session]},
        ]},
    ]


def _message(**fields: Any) -> dict[str, Any]:
    return {"content": "hi", **fields}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


async def test_a_registration_within_int53_is_accepted(fd: FakeDiscord) -> None:
    route = f"/applications/{fd.world.app_id}/guilds/{fd.guild_id}/commands"
    status, answer = await _send(fd, "PUT", route, _command(INT53_MAX, {"es-ES": "sesion"}))
    assert status == 200, answer
    assert fd.violations == []


async def test_a_2_pow_53_max_value_is_refused(fd: FakeDiscord) -> None:
    route = f"/applications/{fd.world.app_id}/guilds/{fd.guild_id}/commands"
    await _refused(fd, "PUT", route, _command(2**53), "1.options.0.options.0.max_value",
                   "NUMBER_TYPE_MAX")
    assert fd.commands() == []  # nothing of a refused registration is kept


async def test_an_es_localisation_key_is_refused(fd: FakeDiscord) -> None:
    route = f"/applications/{fd.world.app_id}/commands"
    await _refused(fd, "PUT", route, _command(100, {"es": "sesion"}),
                   "1.options.0.options.0.name_localizations.es", "LOCALE_INVALID")


async def test_a_command_name_with_capitals_or_spaces_is_refused(fd: FakeDiscord) -> None:
    route = f"/applications/{fd.world.app_id}/commands"
    body = [{"name": "Game New", "description": "Play", "type": 1}]
    await _refused(fd, "PUT", route, body, "0.name", "APPLICATION_COMMAND_INVALID_NAME")
    assert valid_name("partida") and valid_name("खेल") and valid_name("ลอง")
    assert not valid_name("x" * 33) and not valid_name("")


async def test_a_26_option_select_is_refused(fd: FakeDiscord) -> None:
    options = [{"label": f"Turn {i}", "value": str(i)} for i in range(26)]
    select = {"type": 3, "custom_id": "turn", "options": options}
    await _refused(fd, "POST", f"/channels/{fd.general.id}/messages",
                   _message(components=[_row(select)]), "components.0.components.0.options",
                   "BASE_TYPE_MAX_LENGTH")


async def test_a_2001_character_reply_is_refused(fd: FakeDiscord) -> None:
    await _refused(fd, "POST", f"/channels/{fd.general.id}/messages",
                   {"content": "x" * 2001}, "content", "BASE_TYPE_MAX_LENGTH")
    status, _ = await _send(fd, "POST", f"/channels/{fd.general.id}/messages",
                            {"content": "x" * 2000})
    assert status == 200 and fd.violations == []


async def test_a_duplicate_custom_id_is_refused(fd: FakeDiscord) -> None:
    await _refused(fd, "POST", f"/channels/{fd.general.id}/messages",
                   _message(components=[_row(_button("go")), _row(_button("go"))]),
                   "components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED")


async def test_an_81_character_label_is_refused_in_a_multipart_payload(fd: FakeDiscord) -> None:
    body = _message(components=[_row(_button("go", "L" * 81))],
                    attachments=[{"id": 0, "filename": "table.png"}])
    await _refused(fd, "POST", f"/channels/{fd.general.id}/messages", body,
                   "components.0.components.0.label", "BASE_TYPE_MAX_LENGTH", multipart=True)


async def test_six_rows_and_a_select_beside_a_button_are_refused(fd: FakeDiscord) -> None:
    rows = [_row(_button(f"b{i}")) for i in range(6)]
    await _refused(fd, "POST", f"/channels/{fd.general.id}/messages",
                   _message(components=rows), "components", "BASE_TYPE_MAX_LENGTH")
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    await _refused(fd, "POST", f"/channels/{fd.general.id}/messages",
                   _message(components=[_row(select, _button("b"))]), "components.0.components",
                   "COMPONENT_LAYOUT_WIDTH_EXCEEDED")


async def test_embeds_over_6000_characters_are_refused(fd: FakeDiscord) -> None:
    embeds = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    await _refused(fd, "POST", f"/channels/{fd.general.id}/messages", _message(embeds=embeds),
                   "embeds", "MAX_EMBED_SIZE_EXCEEDED")


async def test_a_query_outside_its_range_or_unknown_is_refused(fd: FakeDiscord) -> None:
    await _refused(fd, "GET", f"/channels/{fd.general.id}/messages?limit=101", None, "limit",
                   "NUMBER_TYPE_MAX")
    await _refused(fd, "GET", f"/channels/{fd.general.id}/messages?colour=red", None, "colour",
                   "UNKNOWN_FIELD")
    status, _ = await _send(fd, "GET", f"/channels/{fd.general.id}/messages?limit=100")
    assert status == 200 and fd.violations == []


async def test_a_route_outside_the_spec_is_refused(fd: FakeDiscord) -> None:
    status, answer = await _send(fd, "POST", f"/channels/{fd.general.id}/dance", {})
    assert status == 400 and answer["errors"]["_errors"][0]["code"] == "UNKNOWN_ROUTE"
    [violation] = fd.take_violations()
    assert "no operation" in str(violation)


async def test_discord_py_habits_are_accepted_and_only_they(
    fd: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The allow-list: integer attachment ids and mention ids, with_response/wait as 1/0."""
    body = _message(attachments=[{"id": 0, "filename": "table.png"}],
                    allowed_mentions={"parse": [], "users": [int(fd.bot_user.id)]})
    status, answer = await _send(fd, "POST", f"/channels/{fd.general.id}/messages", body,
                                 multipart=True)
    assert status == 200 and fd.violations == [], answer
    webhook = f"/webhooks/{fd.world.app_id}/token"
    assert contract.check_request("POST", webhook, {"wait": "1", "with_components": "0"},
                                  {"content": "a"}, multipart=False)[1] == []
    # Without the allow-list each of them would be refused: every entry is needed.
    monkeypatch.setattr(contract, "DISCORD_PY_HABITS", ())
    _, errors = contract.check_request("POST", f"/channels/{fd.general.id}/messages", {}, body,
                                       multipart=True)
    assert sorted(".".join(map(str, e.path)) for e in errors) == [
        "allowed_mentions.users.0", "attachments.0.id"]
    _, errors = contract.check_request("POST", webhook, {"wait": "1"}, {"content": "a"},
                                       multipart=False)
    assert [e.path for e in errors] == [("wait",)]
    monkeypatch.undo()
    names = [habit.name for habit in contract.DISCORD_PY_HABITS]
    assert len(names) == len(set(names)) and all(h.reason for h in contract.DISCORD_PY_HABITS)
    # A string where the spec wants a snowflake is no habit: refused.
    await _refused(fd, "POST", f"/channels/{fd.general.id}/messages",
                   _message(allowed_mentions={"users": ["alice"]}),
                   "allowed_mentions.users.0", "STRING_TYPE_REGEX")


def test_every_route_the_stand_in_serves_is_an_operation_of_the_spec() -> None:
    spec = contract.load_spec()
    rest = RestApi.__new__(RestApi)
    served = [
        (r.method, r.path.removeprefix(API))
        for r in rest.routes()
        if isinstance(r, web.RouteDef) and r.path.startswith(API)
    ]
    assert len(served) >= 25
    unknown = []
    for method, route in served:
        template = spec.template_for(route)
        if template is None or spec.operation_of_template(method, template) is None:
            unknown.append(f"{method} {route}")
    assert unknown == []
    # The webhook's @original is its own operation in the spec, and is found as such.
    original = spec.operation("PATCH", "/webhooks/1/tok/messages/@original")
    assert original is not None and original.operation_id == "update_original_webhook_message"


def test_a_missing_spec_fails_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert contract.spec_path() == contract.PACKAGED_SPEC  # shipped with the stand-in
    monkeypatch.setenv(contract.SPEC_ENV, str(tmp_path / "nowhere.json"))
    with pytest.raises(contract.SpecMissing, match=r"nowhere\.json"):
        contract.spec_path()
    monkeypatch.delenv(contract.SPEC_ENV)
    monkeypatch.setattr(contract, "PACKAGED_SPEC", tmp_path / "discord_api_spec" / "openapi.json")
    with pytest.raises(contract.SpecMissing, match="discord_api_spec"):
        contract.spec_path()


# -- Components V2 (issue 41) ----

V2 = 1 << 15


def _card(*children: dict[str, Any]) -> dict[str, Any]:
    return {"flags": V2, "components": [{"type": 17, "components": list(children)}]}


def _text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def _gallery(name: str) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": f"attachment://{name}"},
                                   "description": "the table"}]}


async def test_a_card_within_the_v2_limits_is_accepted_with_its_picture(fd: FakeDiscord) -> None:
    body = {**_card(_text("t" * 3000), _gallery("table.png"), _text("u" * 1000),
                    _row(*[_button(f"b{i}") for i in range(5)])),
            "attachments": [{"id": 0, "filename": "table.png"}]}
    status, answer = await _send(fd, "POST", f"/channels/{fd.general.id}/messages", body,
                                 multipart=True)
    assert status == 200, answer
    stored = fd.message(int(answer["id"]))
    assert stored.card and stored.pictures() == [("attachment://table.png", "the table")]
    assert "the table" in stored.text  # the alt text is read like any text
    assert fd.violations == []


async def test_a_card_over_4000_characters_or_40_components_is_refused(fd: FakeDiscord) -> None:
    route = f"/channels/{fd.general.id}/messages"
    status, answer = await _send(fd, "POST", route, _card(_text("t" * 3000), _text("u" * 1001)))
    assert status == 400 and "4000" in str(answer), answer
    rows = [_row(*[_button(f"b{r}{i}") for i in range(5)]) for r in range(7)]
    status, answer = await _send(fd, "POST", route, _card(_text("t"), *rows))
    assert status == 400 and "40 components" in str(answer), answer
    assert len(fd.take_violations()) == 2


async def test_content_or_embeds_beside_the_v2_flag_are_refused(fd: FakeDiscord) -> None:
    route = f"/channels/{fd.general.id}/messages"
    for extra in ({"content": "hi"}, {"embeds": [{"description": "d"}]}):
        status, answer = await _send(fd, "POST", route, {**_card(_text("t")), **extra})
        assert status == 400, answer
    assert len(fd.take_violations()) == 2


async def test_a_picture_naming_no_file_of_the_message_is_refused(fd: FakeDiscord) -> None:
    status, answer = await _send(fd, "POST", f"/channels/{fd.general.id}/messages",
                                 _card(_text("t"), _gallery("hand.png")))
    assert status == 400 and "attachment://hand.png" in str(answer), answer
    assert len(fd.take_violations()) == 1


async def test_an_edit_turns_a_message_into_a_card_and_never_back(fd: FakeDiscord) -> None:
    route = f"/channels/{fd.general.id}/messages"
    status, sent = await _send(fd, "POST", route, {"content": "old", "embeds": [
        {"description": "an embed table"}]})
    assert status == 200
    edit = f"{route}/{sent['id']}"
    # The flag without clearing content and embeds: the merged message is refused.
    status, answer = await _send(fd, "PATCH", edit, _card(_text("new")))
    assert status == 400, answer
    assert len(fd.take_violations()) == 1
    status, answer = await _send(fd, "PATCH", edit,
                                 {**_card(_text("new")), "content": None, "embeds": []})
    assert status == 200, answer
    assert fd.message(int(sent["id"])).card
    # Once set the flag stays: an edit without it keeps it, so content is refused.
    status, answer = await _send(fd, "PATCH", edit, {"flags": 0, "content": "back"})
    assert status == 400 and fd.message(int(sent["id"])).card, answer
    assert len(fd.take_violations()) == 1

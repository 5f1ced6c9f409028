"""The card emojis' mapping and fallback (``cogs.kit.card_emojis``, issue 41): which card
names get an emoji, labels that stay plain, texts decorated within the card's limit, the
text-only mode, and a request Discord refuses for an emoji sent again without them."""

from __future__ import annotations

import io
import json
import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.process.token_requests import TokenRequests, TokenRoute
from cogs.card_emoji_upload import Uploaded, upload
from cogs.game_ui import Render, as_card
from cogs.kit.card_emojis import (
    CARD_EMOJIS,
    CardEmojis,
    Face,
    _fallback,
    install_fallback,
    refuses_emoji,
)
from cogs.kit.card_layout import MAX_TEXT
from cogs.split.card_face import emoji_faces as split_faces
from cogs.split.card_face import emoji_name
from cogs.ten.card_face import emoji_faces as ten_faces
from game.ten import display
from tests.scripted_http import ScriptedServer, answer


def emojis_for(faces: list[Face]) -> dict[str, discord.PartialEmoji]:
    return {face.token: discord.PartialEmoji(name=face.name, id=1000 + index)
            for index, face in enumerate(faces)}


@pytest.fixture
def emojis() -> CardEmojis:
    found = CardEmojis()
    found.use(emojis_for([*split_faces(), *ten_faces(display)]))
    return found


@pytest.fixture
def process_emojis() -> Any:
    CARD_EMOJIS.use(emojis_for([*split_faces(), *ten_faces(display)]))
    yield CARD_EMOJIS
    CARD_EMOJIS.clear()


def test_every_face_has_a_valid_unique_versioned_name() -> None:
    faces = [*split_faces(), *ten_faces(display)]
    assert len(faces) == 52 + 55
    assert len({face.name for face in faces}) == len(faces)
    assert len({face.token for face in faces}) == len(faces)
    assert all(face.name.endswith("_v1") for face in faces)
    assert emoji_name("10♥") == "split_10h_v1"
    with pytest.raises(ValueError):
        Face("7♥", "bad-name", lambda: b"")


def test_a_face_is_a_small_square_png() -> None:
    for face in (split_faces()[0], ten_faces(display)[-1]):
        data = face.draw()
        assert data.startswith(b"\x89PNG") and len(data) < 256 * 1024
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (width, height) == (128, 128)


def test_the_first_card_a_label_names_gets_its_emoji(emojis: CardEmojis) -> None:
    ten_hearts = emojis.emoji_for("Discard 10♥")
    assert ten_hearts is not None and ten_hearts.name == "split_10h_v1"
    match = emojis.emoji_for("Match 7♥+7♦ (perfect)")
    assert match is not None and match.name == "split_7h_v1"
    bought = emojis.emoji_for("🟦# — price 4")
    assert bought is not None and bought.name == "ten_bw_v1"
    assert emojis.emoji_for("Draw a card") is None


def test_texts_keep_the_plain_name_after_the_emoji(emojis: CardEmojis) -> None:
    text = emojis.text("**Your hand (2):** 10♥ A♠\n```\n 7♥ stays\n```")
    assert "<:split_10h_v1:" in text and text.count("10♥") == 1
    assert ">10♥ <:split_as_v1:" in text
    assert text.endswith("```\n 7♥ stays\n```")  # nothing inside a code block


def test_controls_get_emojis_and_lose_them_in_the_text_only_mode(emojis: CardEmojis) -> None:
    button = discord.ui.Button(label="Discard 7♥")
    own = discord.ui.Button(label="Flip", emoji="🃏")
    select = discord.ui.Select(options=[discord.SelectOption(label="Pick 9♣", value="a"),
                                        discord.SelectOption(label="Skip", value="b")])
    emojis.decorate([button, own, select], True)
    assert button.emoji is not None and button.emoji.name == "split_7h_v1"
    assert button.label == "Discard 7♥"
    assert str(own.emoji) == "🃏"
    assert select.options[0].emoji is not None and select.options[1].emoji is None
    emojis.decorate([button, own, select], False)
    assert button.emoji is None and select.options[0].emoji is None and str(own.emoji) == "🃏"


def test_nothing_is_decorated_before_the_upload_or_after_a_stop(emojis: CardEmojis,
                                                                caplog: Any) -> None:
    assert CardEmojis().emoji_for("7♥") is None
    with caplog.at_level(logging.WARNING):
        emojis.stop("refused")
        emojis.stop("refused again")
    assert emojis.emoji_for("7♥") is None and emojis.text("7♥") == "7♥"
    assert [r.levelno for r in caplog.records if "no longer used" in r.message] == \
        [logging.WARNING]


def test_a_card_render_carries_the_emojis_unless_text_only(process_emojis: CardEmojis) -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Discard 7♥"))
    render = as_card(Render(content="**Your hand (1):** 7♥", view=view))
    card = render.send_kwargs()["view"].to_components()
    dumped = json.dumps(card)
    assert "<:split_7h_v1:" in dumped and '"emoji"' in dumped
    plain = Render(content="**Your hand (1):** 7♥", view=view, card=True, emojis=False)
    dumped = json.dumps(plain.send_kwargs()["view"].to_components())
    assert "<:split" not in dumped and '"emoji"' not in dumped


def test_texts_stay_plain_when_the_emojis_would_pass_the_cards_limit(
    process_emojis: CardEmojis
) -> None:
    long = " ".join(["7♥"] * 1300)  # 3,899 characters: the emojis would pass 4,000
    card = as_card(Render(content=long)).send_kwargs()["view"].to_components()
    assert "<:split" not in json.dumps(card)
    assert MAX_TEXT == 4000


def refusal(text: str) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"), text)


async def test_a_request_refused_for_an_emoji_goes_again_without_them(
    process_emojis: CardEmojis
) -> None:
    sent: list[dict[str, Any]] = []
    emoji = process_emojis.emoji_for("7♥")
    assert emoji is not None

    async def request(route: str, **kwargs: Any) -> str:
        sent.append(kwargs)
        if "emoji" in json.dumps(kwargs):
            raise refusal({"code": 50035, "message": "Invalid Form Body", "errors": {
                "components": {"0": {"emoji": {"name": {"_errors": [{
                    "code": "BUTTON_COMPONENT_INVALID_EMOJI",
                    "message": "Invalid emoji"}]}}}}}})  # type: ignore[arg-type]
        return "ok"

    payload = {"components": [{"type": 2, "label": "Discard 7♥",
                               "emoji": {"id": emoji.id, "name": emoji.name}},
                              {"type": 10, "content": f"{emoji}7♥ and <:other:5>"}]}
    send = _fallback(request, "json", "form")
    assert await send("route", json=payload) == "ok"
    assert len(sent) == 2
    assert sent[1]["json"]["components"] == [{"type": 2, "label": "Discard 7♥"},
                                             {"type": 10, "content": "7♥ and <:other:5>"}]
    assert not process_emojis.active
    form = [{"name": "payload_json", "value": json.dumps(payload)}]
    process_emojis.stopped = None
    sent.clear()
    assert await _fallback(request, "payload", "multipart")("route", multipart=form) == "ok"
    assert "emoji" not in sent[1]["multipart"][0]["value"]


async def test_emojis_stay_in_use_when_the_plain_request_is_refused_too(
    process_emojis: CardEmojis
) -> None:
    """A refusal that names an emoji of the control's own (🃏), not ours: the plain retry is
    refused the same way, so ours were not the cause and stay in use."""
    emoji = process_emojis.emoji_for("7♥")
    assert emoji is not None
    calls = 0

    async def request(route: str, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        raise refusal("Invalid Form Body\nIn components.1.emoji.name: Invalid emoji")

    payload = {"components": [{"type": 2, "label": "Discard 7♥",
                               "emoji": {"id": emoji.id, "name": emoji.name}}]}
    with pytest.raises(discord.HTTPException):
        await _fallback(request, "json", "form")("route", json=payload)
    assert calls == 2 and process_emojis.active


async def test_other_refusals_are_not_retried(process_emojis: CardEmojis) -> None:
    calls = 0

    async def request(route: str, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        raise refusal("Invalid Form Body\nIn content: too long")

    with pytest.raises(discord.HTTPException):
        await _fallback(request, "json", "form")("route", json={"content": "x"})
    assert calls == 1 and process_emojis.active
    assert refuses_emoji(refusal("In components.0.emoji.name: Invalid emoji"))
    assert not refuses_emoji(refusal("In content: too long"))


class FakeApplication:
    """The emoji routes as discord.py's client calls them; ``taken``: names another process
    creates just before this one asks."""

    def __init__(self, existing: list[str], taken: set[str] = frozenset(),
                 refuse: bool = False) -> None:
        self.emojis = {name: SimpleNamespace(name=name, id=index + 1)
                       for index, name in enumerate(existing)}
        self.taken, self.refuse, self.created = set(taken), refuse, []
        self.budget = SimpleNamespace(run=lambda call: call())

    async def fetch_application_emojis(self) -> list[Any]:
        return list(self.emojis.values())

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        if self.refuse:
            raise refusal("Maximum number of emojis reached (30008)")
        if name in self.taken:
            self.emojis[name] = SimpleNamespace(name=name, id=len(self.emojis) + 1)
            raise refusal("In name: APPLICATION_EMOJI_NAME_ALREADY_TAKEN")
        assert image.startswith(b"\x89PNG")
        self.created.append(name)
        self.emojis[name] = SimpleNamespace(name=name, id=len(self.emojis) + 1)
        return self.emojis[name]


def faces() -> list[Face]:
    return split_faces()[:3]


async def test_the_upload_creates_the_missing_reuses_the_rest_and_keeps_other_emojis() -> None:
    found = CardEmojis()
    app = FakeApplication(["owners_logo", faces()[0].name])
    done = await upload(app, faces(), found)  # type: ignore[arg-type]
    assert done == Uploaded(created=2, reused=1)
    assert app.created == [face.name for face in faces()[1:]]
    assert "owners_logo" in app.emojis and found.active
    again = await upload(app, faces(), CardEmojis())  # type: ignore[arg-type]
    assert again == Uploaded(created=0, reused=3)


async def test_a_name_taken_by_another_process_is_reused() -> None:
    found = CardEmojis()
    app = FakeApplication([], taken={faces()[1].name})
    done = await upload(app, faces(), found)  # type: ignore[arg-type]
    assert done == Uploaded(created=2, reused=1) and found.active
    assert found.emoji_for(faces()[1].token) is not None


async def test_a_refused_upload_leaves_plain_names() -> None:
    found = CardEmojis()
    assert await upload(FakeApplication([], refuse=True), faces(), found) is None  # type: ignore[arg-type]
    assert not found.active and found.stopped is not None
    full = FakeApplication([f"e{n}" for n in range(1999)])
    assert await upload(full, faces(), found) is None  # type: ignore[arg-type]


async def test_the_token_writes_wire_goes_again_without_them_with_its_pictures(
    process_emojis: CardEmojis
) -> None:
    """The fallback wraps the token writes' own wire (``TableBot.token_requests``) too: a
    follow-up with a picture refused for an emoji goes again plain, its picture read again."""
    emoji = process_emojis.emoji_for("7♥")
    assert emoji is not None
    invalid = {"code": 50035, "message": "Invalid Form Body", "errors": {
        "components": {"0": {"emoji": {"_errors": [{
            "code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]}}}}}
    requests = TokenRequests(user_agent="DiscordBot (test, 1)")
    adapter = async_context.get()
    wrapped_before = "request" in vars(adapter)
    install_fallback(discord.Client(intents=discord.Intents.none()).http, requests)
    if not wrapped_before:
        del adapter.request  # the process's adapter as other tests find it
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Discard 7♥", emoji=emoji, custom_id="d"))
    files = [discord.File(io.BytesIO(b"PNGDATA"), "hand.png")]
    replies = [answer(400, invalid, reason="Bad Request"), answer(200, {"id": "3"})]
    async with ScriptedServer(replies) as server:
        route = TokenRoute("POST", f"{server.base_url}/api/v10/webhooks/1/t?wait=1", 1, "t")
        with handle_message_parameters(content="x", view=view, files=files) as params:
            data = await requests.request(route, multipart=params.multipart,
                                          files=params.files)
    await requests.close()
    assert data == {"id": "3"}
    refused, plain = server.seen
    assert str(emoji.id).encode() in refused.body and str(emoji.id).encode() not in plain.body
    assert b"\r\n\r\nPNGDATA\r\n--" in refused.body and b"\r\n\r\nPNGDATA\r\n--" in plain.body
    assert not process_emojis.active

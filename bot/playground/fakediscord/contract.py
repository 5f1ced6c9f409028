"""Discord's own contract: every request checked against Discord's published OpenAPI spec.

The spec is a copy of Discord's ``openapi.json`` shipped in this package (``discord_api_spec/``,
MIT, with its LICENSE): the playground runs from a fresh clone or an installed package, where
no ``shared/`` folder lies beside it; a test keeps the copy identical to
``shared/discord-api-spec/openapi.json`` when that exists. Each operation's
request body and query are checked with ``jsonschema`` (Draft 2020-12, ``$ref``s resolved in
the spec through ``referencing``); a validator is built the first time its operation is used
and kept. The limits Discord enforces without stating them in the spec are in
``discord_limits``. discord.py's serialisation habits that Discord accepts are normalised
first (:data:`DISCORD_PY_HABITS`).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from bot.playground.fakediscord.discord_limits import FieldError, limit_errors

SPEC_ENV = "DISCORD_API_SPEC"  # a path to another openapi.json
PACKAGED_SPEC = Path(__file__).resolve().parent / "discord_api_spec" / "openapi.json"
SPEC_URI = "urn:discord-api-spec:openapi"
METHODS = ("get", "put", "post", "patch", "delete")

# jsonschema's keyword -> the code Discord gives such an error in its ``errors`` object.
CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "maxProperties": "BASE_TYPE_MAX_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "required": "BASE_TYPE_REQUIRED",
    "type": "BASE_TYPE_BAD_TYPE",
    "pattern": "STRING_TYPE_REGEX",
    "uniqueItems": "BASE_TYPE_UNIQUE",
    "additionalProperties": "UNKNOWN_FIELD",
}
CONST_BRANCH_KEYS = frozenset({"const", "title", "description"})
_SHAPE = frozenset({"type", "enum", "const", "required", "additionalProperties"})


class SpecMissing(RuntimeError):
    """Discord's API spec is not where the stand-in looks for it."""


def spec_path() -> Path:
    """``$DISCORD_API_SPEC`` when set, else the copy shipped in this package."""
    override = os.environ.get(SPEC_ENV)
    if override:
        path = Path(override)
        if not path.is_file():
            raise SpecMissing(f"{SPEC_ENV}={override} is not a file")
        return path
    if not PACKAGED_SPEC.is_file():
        raise SpecMissing(
            f"Discord's API spec is missing: no {PACKAGED_SPEC} (reinstall the package, or set "
            f"{SPEC_ENV})"
        )
    return PACKAGED_SPEC


# -- discord.py's habits that Discord accepts -----------------------------------------------


@dataclass(frozen=True)
class Habit:
    """A way discord.py serialises a value that the spec is stricter about and Discord accepts;
    ``fix`` rewrites it (in a copy of the request) to the form the spec states."""

    name: str
    reason: str
    fix: Callable[[Any, dict[str, str]], None]


def _message_parts(body: Any) -> Iterator[dict[str, Any]]:
    """The message-shaped objects of a body: itself and an interaction callback's ``data``."""
    if isinstance(body, dict):
        yield body
        if isinstance(body.get("data"), dict):
            yield body["data"]


def _attachment_ids(body: Any, query: dict[str, str]) -> None:
    for part in _message_parts(body):
        for attachment in part.get("attachments") or []:
            if isinstance(attachment, dict) and type(attachment.get("id")) is int:
                attachment["id"] = str(attachment["id"])


def _mention_ids(body: Any, query: dict[str, str]) -> None:
    for part in _message_parts(body):
        mentions = part.get("allowed_mentions")
        if isinstance(mentions, dict):
            for key in ("users", "roles"):
                if isinstance(mentions.get(key), list):
                    mentions[key] = [
                        str(v) if type(v) is int else v for v in mentions[key]
                    ]


def _emoji_ids(body: Any, query: dict[str, str]) -> None:
    def fix(node: Any) -> None:
        if isinstance(node, dict):
            emoji = node.get("emoji")
            if isinstance(emoji, dict) and type(emoji.get("id")) is int:
                emoji["id"] = str(emoji["id"])
            for value in node.values():
                fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    for part in _message_parts(body):
        fix(part.get("components"))


BOOLEAN_FLAGS = ("with_response", "wait", "with_components")


def _boolean_flags(body: Any, query: dict[str, str]) -> None:
    for key in BOOLEAN_FLAGS:
        if query.get(key) in ("0", "1"):
            query[key] = "true" if query[key] == "1" else "false"


DISCORD_PY_HABITS: tuple[Habit, ...] = (
    Habit(
        "attachment ids as integers",
        "discord.py numbers a message's new files 0, 1, ... and sends `attachments[].id` as that "
        "integer (the upload index, not a snowflake); Discord matches it to `files[n]`",
        _attachment_ids,
    ),
    Habit(
        "allowed_mentions ids as integers",
        "discord.py's AllowedMentions sends `users` / `roles` as integers; Discord reads a "
        "snowflake as a string or a number",
        _mention_ids,
    ),
    Habit(
        "component emoji ids as integers",
        "discord.py's PartialEmoji sends a button's or a select option's custom `emoji.id` as "
        "an integer; Discord reads a snowflake as a string or a number",
        _emoji_ids,
    ),
    Habit(
        "boolean query flags as 1/0",
        "discord.py sends `with_response=1` (interaction callbacks), `wait=1` and "
        "`with_components=0|1` (webhooks); Discord's query booleans accept 1/0 as well as "
        "true/false",
        _boolean_flags,
    ),
)


# -- the spec ---------------------------------------------------------------------------------


def _pointer(*parts: str | int) -> str:
    escaped = (str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    return SPEC_URI + "#/" + "/".join(escaped)


@dataclass(frozen=True)
class Operation:
    method: str
    path: str  # the spec's template, e.g. /channels/{channel_id}/messages
    operation_id: str
    item: dict[str, Any]  # the spec's operation object

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path} ({self.operation_id})"


class Spec:
    """The parsed spec, its path templates, and validators built on first use."""

    def __init__(self, path: Path) -> None:
        self.document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        resource: Resource[Any] = DRAFT202012.create_resource(self.document)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self._templates: list[tuple[re.Pattern[str], int, str]] = []
        for template in self.document["paths"]:
            segments = template.strip("/").split("/")
            literal = sum(1 for s in segments if not s.startswith("{"))
            regex = "/".join(
                "[^/]+" if s.startswith("{") else re.escape(s) for s in segments
            )
            self._templates.append((re.compile(f"/{regex}"), literal, template))
        self._discriminators: dict[str, list[Any] | None] = {}
        self._enumerations: dict[int, list[Any] | None] = {}  # by id() of a union in the spec
        self._validator_class = validators.extend(
            Draft202012Validator,
            {"anyOf": self._union("anyOf"), "oneOf": self._union("oneOf"),
             "$ref": self._cached_ref()},
        )
        self._validators: dict[tuple[str, str, str], Validator] = {}
        self._query_params: dict[tuple[str, str], dict[str, tuple[dict[str, Any], str]]] = {}

    def operation(self, method: str, path: str) -> Operation | None:
        """The operation a concrete request path (below ``/api/v10``) calls, literal segments
        winning over parameters (``/messages/@original`` over ``/messages/{message_id}``)."""
        best: tuple[int, str] | None = None
        for regex, literal, template in self._templates:
            if regex.fullmatch(path) and (best is None or literal > best[0]):
                best = (literal, template)
        if best is None:
            return None
        return self.operation_of_template(method, best[1])

    def operation_of_template(self, method: str, template: str) -> Operation | None:
        item = self.document["paths"].get(template, {}).get(method.lower())
        if item is None:
            return None
        return Operation(method.lower(), template, item.get("operationId", "?"), item)

    def template_for(self, route: str) -> str | None:
        """The spec template a stand-in route template (``/webhooks/{app_id}/{token}``) stands
        for: same segments, literals equal, a parameter where the spec has a parameter."""
        segments = route.strip("/").split("/")
        for template in self.document["paths"]:
            theirs = template.strip("/").split("/")
            if len(theirs) == len(segments) and all(
                a == b or (a.startswith("{") and b.startswith("{"))
                for a, b in zip(segments, theirs, strict=True)
            ):
                return template
        return None

    def _validator(self, key: tuple[str, str, str], schema: dict[str, Any]) -> Validator:
        validator = self._validators.get(key)
        if validator is None:
            validator = self._validator_class(schema, registry=self.registry)
            self._validators[key] = validator
        return validator

    @staticmethod
    def _cached_ref() -> Callable[..., Iterator[ValidationError]]:
        """``$ref`` looked up once per reference: every reference points into the one spec
        document (``#/components/...`` from inside it, or absolute), so the text names it."""
        found: dict[str, Any] = {}

        def ref(
            validator: Any, reference: str, instance: Any, schema: dict[str, Any]
        ) -> Iterator[ValidationError]:
            resolved = found.get(reference)
            if resolved is None:
                # jsonschema keeps its referencing.Resolver private; the lookup is its own.
                resolved = found[reference] = validator._resolver.lookup(reference)
            yield from validator.descend(instance, resolved.contents, resolver=resolved.resolver)

        return ref

    def _union(self, keyword: str) -> Callable[..., Iterator[ValidationError]]:
        """``anyOf``/``oneOf`` that first sets aside the branches whose ``type`` property cannot
        hold the object's ``type`` (Discord's unions of components, options and callbacks are
        told apart by it): the same verdict, without validating every branch in full."""
        standard = Draft202012Validator.VALIDATORS[keyword]

        def check(
            validator: Validator, branches: list[Any], instance: Any, schema: dict[str, Any]
        ) -> Iterator[ValidationError]:
            consts = self._consts(branches)
            if consts is not None:  # an enumeration (ButtonStyleTypes, MessageComponentTypes)
                if not any(_same(instance, c) for c in consts):
                    yield ValidationError(f"{instance!r} is not one of {consts}",
                                          validator="enum", validator_value=consts,
                                          instance=instance)
                return
            if isinstance(instance, dict) and "type" in instance and len(branches) > 1:
                kind = instance["type"]
                taken = [b for b in branches if self._takes_type(b, kind)]
                if not taken:
                    allowed = sorted({str(v) for b in branches
                                      for v in self._discriminator(b) or []})
                    yield ValidationError(f"type {kind!r} is not one of {allowed}",
                                          validator="enum", validator_value=allowed,
                                          instance=kind, path=["type"])
                    return
                branches = taken
            yield from standard(validator, branches, instance, schema)

        return check

    def _consts(self, branches: list[Any]) -> list[Any] | None:
        """The values of a union of bare ``const`` branches (titles aside), else None."""
        key = id(branches)
        if key not in self._enumerations:
            found: list[Any] | None = [b["const"] for b in branches if isinstance(b, dict)
                                       and "const" in b and set(b) <= CONST_BRANCH_KEYS]
            self._enumerations[key] = found if found and len(found) == len(branches) else None
        return self._enumerations[key]

    def _takes_type(self, branch: Any, kind: Any) -> bool:
        allowed = self._discriminator(branch)
        return allowed is None or kind in allowed

    def _discriminator(self, branch: Any) -> list[Any] | None:
        """The values a branch's ``type`` property takes (None: any, or not an object)."""
        if not isinstance(branch, dict) or set(branch) != {"$ref"}:
            return None
        ref = str(branch["$ref"])
        if ref not in self._discriminators:
            target: Any = self._resolve(ref)
            prop = (target.get("properties") or {}).get("type") if target else None
            found: list[Any] | None = None
            if isinstance(prop, dict):
                if isinstance(prop.get("enum"), list):
                    found = list(prop["enum"])
                elif "const" in prop:
                    found = [prop["const"]]
            self._discriminators[ref] = found
        return self._discriminators[ref]

    def _resolve(self, ref: str) -> dict[str, Any] | None:
        if not ref.startswith("#/"):
            return None
        target: Any = self.document
        for part in ref.removeprefix("#/").split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(
                target, dict) else None
        return target if isinstance(target, dict) else None

    def body_validator(self, op: Operation, multipart: bool) -> Validator | None:
        content = (op.item.get("requestBody") or {}).get("content") or {}
        media = "multipart/form-data" if multipart and "multipart/form-data" in content else (
            "application/json")
        if media not in content:
            return None
        pointer = _pointer("paths", op.path, op.method, "requestBody", "content", media, "schema")
        return self._validator((op.method, op.path, media), {"$ref": pointer})

    def query_validator(self, op: Operation) -> tuple[Validator, dict[str, str]]:
        """The query's validator, and each parameter's JSON type (to read its string)."""
        params = self._query_params.get((op.method, op.path))
        if params is None:
            params = {}
            path_item = self.document["paths"][op.path]
            for where, parameters in (
                (("paths", op.path), path_item.get("parameters") or []),
                (("paths", op.path, op.method), op.item.get("parameters") or []),
            ):
                for index, param in enumerate(parameters):
                    if param.get("in") == "query":
                        schema_ref = {"$ref": _pointer(*where, "parameters", index, "schema")}
                        params[param["name"]] = (schema_ref, self._json_type(param["schema"]))
            self._query_params[(op.method, op.path)] = params
        required = [
            p["name"]
            for p in (op.item.get("parameters") or [])
            if p.get("in") == "query" and p.get("required")
        ]
        schema = {
            "type": "object",
            "properties": {name: ref for name, (ref, _) in params.items()},
            "required": required,
            "additionalProperties": False,
        }
        validator = self._validator((op.method, op.path, "?query"), schema)
        return validator, {name: kind for name, (_, kind) in params.items()}

    def _json_type(self, schema: Mapping[str, Any]) -> str:
        seen = 0
        while "$ref" in schema and seen < 20:
            target: Any = self.document
            for part in schema["$ref"].removeprefix("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            schema, seen = target, seen + 1
        kind = schema.get("type", "string")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "string")
        return str(kind)


@cache
def load_spec() -> Spec:
    """The spec, read once per process (the first check pays for it: about 0.3 s)."""
    return Spec(spec_path())


# -- checking a request ---------------------------------------------------------------------


def check_request(
    method: str, api_path: str, query: Mapping[str, str], body: Any, *, multipart: bool
) -> tuple[Operation | None, list[FieldError]]:
    """The operation a request calls and everything in it Discord would refuse (empty: valid).

    ``api_path`` is the path below ``/api/v10``; ``body`` the parsed JSON (for multipart, the
    ``payload_json`` part)."""
    spec = load_spec()
    op = spec.operation(method, api_path)
    if op is None:
        return None, [FieldError((), "UNKNOWN_ROUTE",
                                 f"{method} {api_path} is no operation of Discord's API spec")]
    body = copy.deepcopy(body)
    fixed_query = dict(query)
    for habit in DISCORD_PY_HABITS:
        habit.fix(body, fixed_query)
    validator, kinds = spec.query_validator(op)
    errors = [
        FieldError(_error_path(e), *_code_and_message(e))
        for e in _leaves(validator.iter_errors(_typed_query(fixed_query, kinds)))
    ]
    body_validator = spec.body_validator(op, multipart)
    if body_validator is not None:
        errors += [
            FieldError(_error_path(e), *_code_and_message(e))
            for e in _leaves(body_validator.iter_errors(body))
        ]
    errors += limit_errors(op.operation_id, body)
    return op, _unique(errors)


def _same(value: Any, const: Any) -> bool:
    """JSON equality: ``true`` is not ``1``."""
    return bool(value == const and isinstance(value, bool) == isinstance(const, bool))


def _typed_query(query: Mapping[str, str], kinds: Mapping[str, str]) -> dict[str, Any]:
    """Query strings read as the parameter's type; what does not read stays a string (and
    fails its type)."""
    typed: dict[str, Any] = {}
    for name, raw in query.items():
        kind = kinds.get(name)
        value: Any = raw
        if kind == "integer" and re.fullmatch(r"-?\d+", raw):
            value = int(raw)
        elif kind == "number":
            with contextlib.suppress(ValueError):
                value = float(raw)
        elif kind == "boolean" and raw in ("true", "false"):
            value = raw == "true"
        typed[name] = value
    return typed


def _leaves(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """The errors that say what is wrong: inside an ``anyOf``/``oneOf`` that nothing matched,
    those of the branch the value was meant for (the one whose first failure lies deepest,
    a range or length failure winning over a type or discriminator one)."""
    for error in errors:
        if error.validator in ("anyOf", "oneOf") and error.context:
            branches: dict[Any, list[ValidationError]] = {}
            for sub in error.context:
                branches.setdefault(sub.relative_schema_path[0], []).append(sub)
            chosen = max(branches.values(), key=_branch_fit)
            yield from _leaves(chosen)
        else:
            yield error


def _branch_fit(errors: list[ValidationError]) -> tuple[int, int, int]:
    depth = min(len(e.absolute_path) for e in errors)
    shallow = [e for e in errors if len(e.absolute_path) == depth]
    shape_free = int(all(e.validator not in _SHAPE for e in shallow))
    return depth, shape_free, -len(errors)


def _error_path(error: ValidationError) -> tuple[str | int, ...]:
    path = tuple(error.absolute_path)
    if error.validator == "required" and isinstance(error.validator_value, list):
        missing = [k for k in error.validator_value
                   if isinstance(error.instance, dict) and k not in error.instance]
        if missing:
            return (*path, missing[0])
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        allowed = schema.get("properties") or {}
        extra = [k for k in error.instance if k not in allowed]
        if extra:
            return (*path, extra[0])
    return path


def _code_and_message(error: ValidationError) -> tuple[str, str]:
    """Discord's code and a message in its words (never the whole refused value)."""
    kind, limit = str(error.validator), error.validator_value
    code = CODES.get(kind, "BASE_TYPE_INVALID")
    if kind in ("maxLength", "maxItems", "maxProperties"):
        return code, f"Must be {limit} or fewer in length."
    if kind in ("minLength", "minItems"):
        return code, f"Must be {limit} or more in length."
    if kind == "maximum":
        return code, f"Must be less than or equal to {limit} (got {error.instance!r})."
    if kind == "minimum":
        return code, f"Must be greater than or equal to {limit} (got {error.instance!r})."
    if kind in ("enum", "const"):
        return code, f"Value must be one of {limit!r}."
    if kind == "type":
        return code, f"Must be of type {limit} (got {type(error.instance).__name__})."
    message = error.message
    return code, message if len(message) <= 160 else message[:160] + "..."


def _unique(errors: list[FieldError]) -> list[FieldError]:
    seen: set[tuple[tuple[str | int, ...], str]] = set()
    kept = []
    for error in errors:
        if (error.path, error.code) not in seen:
            seen.add((error.path, error.code))
            kept.append(error)
    return kept


def errors_object(errors: Iterable[FieldError]) -> dict[str, Any]:
    """Discord's ``errors`` shape: ``{"0": {"options": {"0": {"max_value": {"_errors":
    [{"code": ..., "message": ...}]}}}}}``."""
    root: dict[str, Any] = {}
    for error in errors:
        node = root
        for part in error.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return root

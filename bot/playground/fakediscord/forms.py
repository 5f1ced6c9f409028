"""A message's multipart form (``payload_json`` and ``files[n]``), split in one pass over the
whole body, for the stand-in without its spec check (``--no-validation`` load runs).

aiohttp's part reader goes through a form in small chunks in Python and was a third of the
load bench's CPU with pictures on (every table picture is uploaded). Here the body is read
once and cut at its boundary with ``bytes.split``; each file keeps its bytes (the stand-in
serves them back, counts them and records their size). A form this does not take (a
disposition with an RFC 2231 ``filename*``, escaped quotes, no final boundary) is read with
the standard library's MIME parser instead. With the spec check on, the stand-in reads forms
with aiohttp's reader as before (``rest._parse_body``).
"""

from __future__ import annotations

import json
import re
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

Files = list[tuple[str, str, bytes]]

_PARAM = re.compile(r';\s*([A-Za-z0-9_*-]+)="([^"\\]*)"')
_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')


def boundary_of(content_type: str) -> bytes | None:
    found = _BOUNDARY.search(content_type)
    return found.group(1).encode("latin-1") if found else None


def split_form(body: bytes, content_type: str) -> tuple[Any, Files]:
    """(the ``payload_json`` part decoded, the file parts) of a ``multipart/form-data`` body
    whose ``Content-Type`` header is ``content_type``."""
    boundary = boundary_of(content_type)
    fast = _split(body, boundary) if boundary else None
    return fast if fast is not None else _parse_mime(body, content_type)


def _split(body: bytes, boundary: bytes) -> tuple[Any, Files] | None:
    delimiter = b"--" + boundary
    if not body.startswith(delimiter):
        return None
    segments = body[len(delimiter):].split(b"\r\n" + delimiter)
    if not segments[-1].startswith(b"--"):  # no closing boundary
        return None
    payload: Any = None
    files: Files = []
    for segment in segments[:-1]:
        if not segment.startswith(b"\r\n"):
            return None
        head, found, content = segment[2:].partition(b"\r\n\r\n")
        if not found:
            return None
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", "surrogateescape").split("\r\n"):
            name, colon, value = line.partition(":")
            if not colon:
                return None
            headers[name.strip().lower()] = value.strip()
        disposition = headers.get("content-disposition", "")
        if "*=" in disposition or "\\" in disposition:
            return None
        params = dict(_PARAM.findall(disposition))
        if params.get("name") == "payload_json":
            payload = json.loads(content)
        elif params.get("filename"):
            files.append((params["filename"],
                          headers.get("content-type", "application/octet-stream"), content))
    return payload, files


def _parse_mime(body: bytes, content_type: str) -> tuple[Any, Files]:
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    payload: Any = None
    files: Files = []
    for part in message.iter_parts():
        raw = part.get_payload(decode=True)
        data = raw if isinstance(raw, bytes) else b""
        if part.get_param("name", header="content-disposition") == "payload_json":
            payload = json.loads(data)
        elif part.get_filename():
            files.append((str(part.get_filename()),
                          part.get("Content-Type", "application/octet-stream"), bytes(data)))
    return payload, files

"""What both games' invariant checks (``game.<game>.invariants``) raise when a state is broken."""

from __future__ import annotations


class InvariantError(AssertionError):
    pass


def require(condition: bool, message: str) -> None:
    """Raise InvariantError with ``message`` unless ``condition`` holds."""
    if not condition:
        raise InvariantError(message)

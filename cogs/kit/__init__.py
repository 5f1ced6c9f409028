"""The Discord kit: message limits, custom ids, control menus, refusal texts, unexpected errors."""

"""The bot process, game-agnostic: the store (SQLite or PostgreSQL), sessions, machine seats and
the turn clock, rankings, and the process itself (settings, Discord client, shards)."""

"""The bot process: settings, SQLite store, session manager, Discord client."""

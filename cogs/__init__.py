"""Discord cogs: thin mappings from slash commands and component clicks to the session manager."""

"""The process: its settings, the Discord client, shard ownership, the API base."""

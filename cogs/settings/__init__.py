"""Server and personal settings: /config (``config_command``) and /language
(``language_command``), and what every cog reads of them: the process's cache
(``settings_cache``), typed server settings (``server_settings``), the reader's words
(``reader_words``). Loaded as ``cogs.settings.extension``."""

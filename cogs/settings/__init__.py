"""Server and personal settings: /config (``config_command``) and /language
(``language_command``). What every cog reads of them lives below the table core: the
process's cache and the reader's words in ``cogs.i18n`` (``settings_cache``, ``reader_words``),
the typed server settings in ``cogs.kit.server_settings``. Loaded as
``cogs.settings.extension``."""

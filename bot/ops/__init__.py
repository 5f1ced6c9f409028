"""Operating the process: metrics (``bot.ops.metrics``), the health and metrics HTTP endpoint
(``bot.ops.http_server``), structured logs (``bot.ops.json_logs``), the recent errors kept for
``/admin health`` (``bot.ops.error_log``), the REST trace (``bot.ops.rest_trace``) and the
lock a bot holds on its SQLite file (``bot.ops.file_lock``). Backups: ``bot.backups``.

Discord-free: the hooks that read discord.py objects live in the client (``bot.process.client``,
``bot.process.client_ops``) and in ``cogs.admin.extension``. See ``docs/operations.md``.
"""

"""Operations on the Discord side: ``/admin health`` (``cogs.admin.admin_commands``), what it reads
from the running client (``cogs.admin.diagnostics``) and how it says it
(``cogs.admin.health_text``). Loaded as ``cogs.admin.extension``."""

"""Operations on the Discord side: ``/admin health`` (``cogs.ops.admin_cog``), what it reads
from the running client (``cogs.ops.diagnostics``) and how it says it
(``cogs.ops.health_text``). Wired by the ``cogs.admin`` extension."""

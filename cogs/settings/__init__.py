"""Server and personal settings as the cogs read them: the process's cache and typed values."""

"""Importers: read published datasets (the Comprehensive Rules, card dumps) into N-Quads files.
May import ``core``, ``kb``, ``lookups``, ``reasoning`` and ``app`` (an import ends with a rebuild);
never exporters or the CLI."""

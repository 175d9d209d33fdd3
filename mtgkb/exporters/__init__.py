"""Writing the graph out: RDF and property-graph formats (``writers``) and focused views (``views``).
May import ``core``, ``kb``, ``lookups``, ``reasoning`` and ``app``; never the CLI."""

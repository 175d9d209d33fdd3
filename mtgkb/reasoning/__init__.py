"""Verdicts: answers to a judge's "can this be done?" questions, evaluated from the requirements the
mechanics carry in the graph. May import ``core``, ``kb`` and ``lookups``; never importers, exporters
or the CLI."""

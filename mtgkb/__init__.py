"""mtgkb: Magic: The Gathering rules knowledge in one RDF graph, with citations.

The package is layered, bottom to top; a module imports only from its own layer and those below
(tests/test_layers.py checks it): ``core`` (errors, paths, progress, rule numbers: imports nothing of
ours), ``kb`` (IRIs, vocabulary, the store and SPARQL), ``lookups``, ``reasoning``, ``app`` (opening
the knowledge base with what reasoning derives), ``importers``, ``exporters``, ``cli``. This module
imports nothing.
"""

__version__ = "0.1.0"

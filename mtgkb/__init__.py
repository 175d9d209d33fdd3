"""mtgkb: Magic: The Gathering rules knowledge in one RDF graph, with citations."""

__version__ = "0.1.0"

"""The knowledge base itself: IRIs, the vocabulary, names, the store (its sources, build and name
index), the rules history file and running SPARQL. May import ``mtgkb.core``; nothing above."""

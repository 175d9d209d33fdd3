"""Verdicts: answers to a judge's "can this be done?" questions, evaluated from the requirements the
mechanics carry in the graph. May import the store, the vocabulary, IRIs and lookups; never the CLI."""

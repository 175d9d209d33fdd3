"""What a judge looks up: a card, the rulings on a card or mechanic, a rule, free text.

Each report is a plain dataclass built from one or two SPARQL queries; the modules import neither
rdflib nor anything heavy, so a cold ``mtgkb card`` stays fast. May import ``mtgkb.core`` and
``mtgkb.kb``; nothing above.
"""

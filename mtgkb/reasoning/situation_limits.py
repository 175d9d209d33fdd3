"""How large a described situation may be: every bound the situation reader and the mana arithmetic
enforce, each far beyond any real game, and each small enough that a hostile situation (a huge
number, a YAML alias bomb, a million players) is refused at once with a message naming the field,
instead of taking the machine's memory or minutes of work.

Why each bound is far beyond play:

- ``MAX_TEXT`` (1,000,000 characters): the README's example situation is 1,100 characters; a
  situation listing every object of a four-player Commander game is under 50,000.
- ``MAX_VALUES`` (100,000 values, YAML aliases expanded): ``MAX_OBJECTS`` objects of a dozen values
  each are 12,000; the rest is room. Counted while PyYAML composes the document, before any alias is
  expanded, so 15 KB of aliases can no longer stand for a billion values.
- ``MAX_DEPTH`` (20 levels): the deepest field of the schema
  (``players.me.battlefield[0].attacking.planeswalker``) is 6 levels down.
- ``MAX_STRING`` (5,000 characters in one text or key): the longest card name in the pool is 141
  characters and the longest rules text 769.
- ``MAX_PLAYERS`` (100): Grand Melee, the variant for the largest games, is "normally used only in
  games begun with ten or more players" (CR 807.1); a hundred is ten such tables in one game.
- ``MAX_ITEMS`` (1,000 in one list) and ``MAX_OBJECTS`` (1,000 objects in all zones together): a
  library is 60 or 100 cards, a hand a handful, and the largest boards of token decks hold a few
  hundred permanents; a judge describes the objects that matter, usually fewer than twenty.
- ``MAX_AMOUNT`` (1,000,000,000), for any number (mana in one symbol or in all, counters of a kind,
  power and toughness): the largest mana symbol ever printed is Gleemax's {1000000}, a thousand times
  less; a loop taken as a shortcut repeats "a specified number of times" (CR 732.2a), and players
  name thousands or millions. Amounts are kept as counts, so even this much costs nothing.
- ``MAX_COMMANDER_CASTS`` (1,000): each cast from the command zone costs {2} more than the last
  (CR 903.8), so the thousandth costs 2,000 more mana; real games see a handful, and loops that recast
  a commander stop at tens.
"""

from __future__ import annotations

MAX_TEXT = 1_000_000
MAX_VALUES = 100_000
MAX_DEPTH = 20
MAX_STRING = 5_000
MAX_PLAYERS = 100
MAX_ITEMS = 1_000
MAX_OBJECTS = 1_000
MAX_AMOUNT = 1_000_000_000
MAX_COMMANDER_CASTS = 1_000

"""Mana costs as arithmetic: adding tax, taking off reductions, and whether some mana pays a cost.

A cost is generic mana plus counted symbols (107.4): W U B R G, C, hybrid ({W/U}, {2/B}), Phyrexian
({U/P}, {W/U/P}), X (zero unless chosen, 107.3) and snow. Available mana is written the same way,
a number standing for that much colourless mana. Amounts are counts, never strings or lists as long
as the amount: ``{999999999}`` is one number, and ten casts of tax add a count, not twenty symbols.
Paying is a small search over the kinds of symbols: each coloured, hybrid or Phyrexian symbol takes
one mana it accepts, then generic takes any of the rest (601.2g-h).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from mtgkb.core.errors import shown
from mtgkb.reasoning.situation_limits import MAX_AMOUNT

_SYMBOL = re.compile(r"\{([^{}]+)\}")
COLOURS = "WUBRG"


@dataclass(frozen=True)
class Cost:
    generic: int
    #: Every other symbol with how many of it, in the order first printed: ("U", 1), ("W/U", 2), ...
    counted: tuple[tuple[str, int], ...] = ()
    x_count: int = 0

    @property
    def symbols(self) -> dict[str, int]:
        """Each symbol but generic ("U", "W/U", "2/B", "U/P", "C", "S") -> how many."""
        return dict(self.counted)

    def text(self) -> str:
        parts = ["{X}"] * self.x_count
        if self.generic or (not self.counted and not self.x_count):
            parts.append(f"{{{self.generic}}}")
        parts += [f"{{{symbol}}}" * count for symbol, count in self.counted]
        return "".join(parts)

    @property
    def mana_value(self) -> int:
        value = self.generic
        for symbol, count in self.counted:
            halves = symbol.split("/")
            value += (int(halves[0]) if halves[0].isdigit() else 1) * count
        return value


def parse_cost(text: str) -> Cost:
    """``"{2}{U}{B}"`` -> Cost(2, (("U", 1), ("B", 1))). A malformed string is a ValueError saying why."""
    generic, others, xs = 0, Counter(), 0
    for raw in _symbols(text, "{2}{U}{B}"):
        symbol = raw.upper()
        if _is_number(symbol):
            generic = _within(generic + _amount(symbol), text)
        elif symbol == "X":
            xs += 1
        elif _valid_symbol(symbol):
            others[symbol] += 1
        else:
            raise ValueError(f"{{{shown(raw, 20)}}} in '{shown(text)}' is not a mana symbol")
    return Cost(generic, tuple(others.items()), xs)


def _symbols(text: str, example: str) -> list[str]:
    cleaned = text.replace(" ", "")
    symbols = _SYMBOL.findall(cleaned)
    if "".join(f"{{{s}}}" for s in symbols) != cleaned:
        raise ValueError(f"'{shown(text)}' is not a string of mana symbols such as '{example}'")
    return symbols


def _is_number(symbol: str) -> bool:
    return symbol.isascii() and symbol.isdigit()


def _amount(digits: str) -> int:
    """The number a generic symbol spells, refused beyond any game before Python computes it."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(MAX_AMOUNT)) or int(significant) > MAX_AMOUNT:
        raise ValueError(
            f"{{{shown(digits, 20)}}} is more mana than any game makes; one symbol is at most "
            f"{{{MAX_AMOUNT}}} (the largest ever printed is {{1000000}})"
        )
    return int(significant)


def _within(total: int, text: str) -> int:
    if total > MAX_AMOUNT:
        raise ValueError(f"'{shown(text)}' is more than {MAX_AMOUNT:,} mana, more than any game makes")
    return total


def _valid_symbol(symbol: str) -> bool:
    halves = symbol.split("/")
    if len(halves) == 1:
        return symbol in COLOURS or symbol in {"C", "S"}
    if halves[-1] == "P":
        return all(h in COLOURS for h in halves[:-1]) and len(halves) in (2, 3)
    if len(halves) == 2:
        first, second = halves
        return (first in COLOURS or first in {"2", "C"}) and second in COLOURS and first != second
    return False


def parse_available(text: str) -> Counter[str]:
    """Mana a player can produce: ``"{2}{U}{B}"`` -> two colourless, one blue, one black."""
    pool: Counter[str] = Counter()
    for raw in _symbols(text, "{1}{U}{B}"):
        symbol = raw.upper()
        if _is_number(symbol):
            pool["C"] += _amount(symbol)
        elif symbol in COLOURS or symbol == "C":
            pool[symbol] += 1
        else:
            raise ValueError(
                "available mana is whole mana ({W} {U} {B} {R} {G} {C} or a number), "
                f"not {{{shown(raw, 20)}}}"
            )
        _within(pool.total(), text)
    return pool


def add(cost: Cost, extra: Cost) -> Cost:
    counted = Counter(dict(cost.counted))
    counted.update(dict(extra.counted))
    return Cost(cost.generic + extra.generic, tuple(counted.items()), cost.x_count + extra.x_count)


def times(cost: Cost, count: int) -> Cost:
    counted = tuple((symbol, n * count) for symbol, n in cost.counted if count)
    return Cost(cost.generic * count, counted, cost.x_count * count)


def reduce(cost: Cost, reduction: Cost) -> Cost:
    """A reduction of generic mana lowers only the generic part, never below zero (601.2f); coloured
    symbols in a reduction take off matching symbols."""
    taken = dict(reduction.counted)
    counted = tuple(
        (symbol, n - min(n, taken.get(symbol, 0))) for symbol, n in cost.counted if n > taken.get(symbol, 0)
    )
    return Cost(max(0, cost.generic - reduction.generic), counted, cost.x_count)


@dataclass(frozen=True)
class Payment:
    payable: bool
    life: int = 0  # life paid for Phyrexian symbols
    left: Counter[str] | None = None  # mana left over, by kind ("C" colourless), when payable


#: What one symbol can be paid with: a kind of mana ("W", "C"), any ``n`` mana (``n``), or 2 life ("").
_Way = str | int


def pay(cost: Cost, available: Counter[str]) -> Payment:
    """Whether ``available`` pays ``cost`` (X as zero), with the least life for Phyrexian symbols
    (2 each). Each kind of symbol splits its count between the ways it can be paid; mana that may be
    of any kind (generic, snow, the 2 of {2/B}) is taken last, from what the rest left."""
    kinds = [(count, _ways(symbol)) for symbol, count in cost.counted]
    best: Payment | None = None

    def search(index: int, pool: Counter[str], any_mana: int, life: int) -> None:
        nonlocal best
        if best is not None and best.life <= life:
            return
        if index == len(kinds):
            if pool.total() >= any_mana:
                best = Payment(True, life, _take_any(pool, any_mana))
            return
        count, ways = kinds[index]
        for split in _splits(count, len(ways)):
            need: Counter[str] = Counter()
            more_any, more_life = 0, 0
            for way, n in zip(ways, split, strict=True):
                if way == "":
                    more_life += 2 * n
                elif isinstance(way, int):
                    more_any += way * n
                else:
                    need[way] += n
            if all(pool[kind] >= n for kind, n in need.items()):
                search(index + 1, pool - need, any_mana + more_any, life + more_life)

    search(0, +Counter(available), cost.generic, 0)
    return best or Payment(False)


def _ways(symbol: str) -> list[_Way]:
    halves = symbol.split("/")
    if halves[-1] == "P":
        return [*halves[:-1], ""]
    if len(halves) == 2:
        first, second = halves
        return [second, 2 if first == "2" else first]
    if symbol == "S":
        return [1]
    return [symbol]


def _splits(count: int, parts: int):
    """Every way to split ``count`` symbols between ``parts`` ways of paying them."""
    if parts == 1:
        yield (count,)
        return
    for first in range(count, -1, -1):
        for rest in _splits(count - first, parts - 1):
            yield (first, *rest)


def _take_any(pool: Counter[str], count: int) -> Counter[str]:
    """``pool`` less ``count`` mana of any kind, colourless first."""
    left = Counter(pool)
    for kind in sorted(left, key=lambda k: (k != "C", k)):
        taken = min(count, left[kind])
        left[kind] -= taken
        count -= taken
    return +left

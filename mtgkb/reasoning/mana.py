"""Mana costs as arithmetic: adding tax, taking off reductions, and whether some mana pays a cost.

A cost is a list of symbols (107.4): generic amounts, W U B R G, C, hybrid ({W/U}, {2/B}), Phyrexian
({U/P}, {W/U/P}), X (zero unless chosen, 107.3) and snow. Available mana is written the same way,
a number standing for that much colourless mana. Paying is a small search: each coloured, hybrid
or Phyrexian symbol takes one mana it accepts, then generic takes any of the rest (601.2g-h).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_SYMBOL = re.compile(r"\{([^{}]+)\}")
COLOURS = "WUBRG"


@dataclass(frozen=True)
class Cost:
    generic: int
    symbols: tuple[str, ...]  # everything but generic, in printed order: "U", "W/U", "2/B", "U/P", "C", "S"
    x_count: int = 0

    def text(self) -> str:
        parts = ["{X}"] * self.x_count
        if self.generic or (not self.symbols and not self.x_count):
            parts.append(f"{{{self.generic}}}")
        parts += [f"{{{s}}}" for s in self.symbols]
        return "".join(parts)

    @property
    def mana_value(self) -> int:
        value = self.generic
        for symbol in self.symbols:
            halves = symbol.split("/")
            value += int(halves[0]) if halves[0].isdigit() else 1
        return value


def parse_cost(text: str) -> Cost:
    """``"{2}{U}{B}"`` -> Cost(2, ("U", "B")). A malformed string is a ValueError saying why."""
    cleaned = text.replace(" ", "")
    symbols = _SYMBOL.findall(cleaned)
    if "".join(f"{{{s}}}" for s in symbols) != cleaned:
        raise ValueError(f"{text!r} is not a string of mana symbols such as '{{2}}{{U}}{{B}}'")
    generic, others, xs = 0, [], 0
    for raw in symbols:
        symbol = raw.upper()
        if symbol.isdigit():
            generic += int(symbol)
        elif symbol == "X":
            xs += 1
        elif _valid_symbol(symbol):
            others.append(symbol)
        else:
            raise ValueError(f"{{{raw}}} in {text!r} is not a mana symbol")
    return Cost(generic, tuple(others), xs)


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
    cleaned = text.replace(" ", "")
    symbols = _SYMBOL.findall(cleaned)
    if "".join(f"{{{s}}}" for s in symbols) != cleaned:
        raise ValueError(f"{text!r} is not a string of mana symbols such as '{{1}}{{U}}{{B}}'")
    for raw in symbols:
        symbol = raw.upper()
        if symbol.isdigit():
            pool["C"] += int(symbol)
        elif symbol in COLOURS or symbol == "C":
            pool[symbol] += 1
        else:
            raise ValueError(
                "available mana is whole mana ({W} {U} {B} {R} {G} {C} or a number), "
                f"not {{{raw}}}"
            )
    return pool


def add(cost: Cost, extra: Cost) -> Cost:
    return Cost(cost.generic + extra.generic, cost.symbols + extra.symbols, cost.x_count + extra.x_count)


def times(cost: Cost, count: int) -> Cost:
    return Cost(cost.generic * count, cost.symbols * count, cost.x_count * count)


def reduce(cost: Cost, reduction: Cost) -> Cost:
    """A reduction of generic mana lowers only the generic part, never below zero (601.2f); coloured
    symbols in a reduction take off matching symbols."""
    symbols = list(cost.symbols)
    for symbol in reduction.symbols:
        if symbol in symbols:
            symbols.remove(symbol)
    return Cost(max(0, cost.generic - reduction.generic), tuple(symbols), cost.x_count)


@dataclass(frozen=True)
class Payment:
    payable: bool
    life: int = 0  # life paid for Phyrexian symbols
    left: str = ""  # mana left over, as symbols


def pay(cost: Cost, available: Counter[str]) -> Payment:
    """Whether ``available`` pays ``cost`` (X as zero); Phyrexian symbols fall back to 2 life each."""
    best: Payment | None = None

    def search(index: int, pool: Counter[str], life: int) -> None:
        nonlocal best
        if best is not None and best.life <= life:
            return
        if index == len(cost.symbols):
            remaining = sum(pool.values())
            if remaining >= cost.generic:
                best = Payment(True, life, _leftover(pool, cost.generic))
            return
        for option, life_cost in _ways(cost.symbols[index]):
            if option.startswith("ANY"):
                count = int(option[3:])
                if sum(pool.values()) >= count:
                    search(index + 1, _take_any(pool, count), life + life_cost)
                continue
            need = Counter(option)
            if all(pool[k] >= v for k, v in need.items()):
                search(index + 1, pool - need, life + life_cost)

    search(0, Counter(available), 0)
    return best or Payment(False)


def _ways(symbol: str) -> list[tuple[str, int]]:
    halves = symbol.split("/")
    if halves[-1] == "P":
        return [(h, 0) for h in halves[:-1]] + [("", 2)]
    if len(halves) == 2:
        first, second = halves
        ways = [(second, 0)]
        if first == "2":
            ways.append(("ANY2", 0))
        else:
            ways.append((first, 0))
        return ways
    if symbol == "S":
        return [("ANY1", 0)]
    return [(symbol, 0)]


def _take_any(pool: Counter[str], count: int) -> Counter[str]:
    left = Counter(pool)
    for key in sorted(left, key=lambda k: (k != "C", k)):
        while count and left[key]:
            left[key] -= 1
            count -= 1
    return +left


def _leftover(pool: Counter[str], generic: int) -> str:
    left = _take_any(pool, generic)
    return "".join(f"{{{k}}}" * v for k, v in sorted(left.items()))

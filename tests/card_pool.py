"""Shared helpers for the card-import tests: the full card pool imported once per test session, the
subset's categories as mechanic slugs, and snapshots of the user folders to prove a refused import
changed nothing.

The full import (the Comprehensive Rules, the Scryfall commander list, then the whole MTGJSON
snapshot; the rules first, while the store is still small, so their rebuild is cheap) is the
expensive part;
:func:`imported_pool` runs it once, in its own data and cache folders, however many test modules ask
(through the ``card_pool`` fixture of conftest.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtgkb.kb.iris import slugify

REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Pool:
    data_dir: Path
    cache_dir: Path
    scryfall: Any  # CardImportSummary
    mtgjson: Any  # CardImportSummary
    base: Path
    kb: Any  # KnowledgeBase, opened read-only
    curated_before: dict[str, str]

    @property
    def env(self) -> dict[str, str]:
        """The environment that points mtgkb at the pool's folders (``env`` of ``run_cli``)."""
        return {"MTGKB_DATA_DIR": str(self.data_dir), "MTGKB_CACHE_DIR": str(self.cache_dir)}


_POOL: Pool | None = None


@contextlib.contextmanager
def user_dirs(base: Path) -> Iterator[None]:
    """Point mtgkb at ``base``/data and ``base``/cache for the block, then restore the session's."""
    saved = {key: os.environ.get(key) for key in ("MTGKB_DATA_DIR", "MTGKB_CACHE_DIR")}
    os.environ["MTGKB_DATA_DIR"] = str(base / "data")
    os.environ["MTGKB_CACHE_DIR"] = str(base / "cache")
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def curated_digest() -> dict[str, str]:
    """sha256 of every file under ontology/ and data/."""
    return {
        str(path.relative_to(REPO_ROOT)): hashlib.sha256(path.read_bytes()).hexdigest()
        for top in ("ontology", "data")
        for path in sorted((REPO_ROOT / top).rglob("*"))
        if path.is_file()
    }


def imported_pool(shared_data: Path, base: Path) -> Pool:
    """Import the Comprehensive Rules, the Scryfall commander list and the full MTGJSON snapshot into
    ``base`` (first call only; later calls return the same pool)."""
    global _POOL
    if _POOL is None:
        from mtgkb.app import open_kb
        from mtgkb.importers.cr_import import import_rules
        from mtgkb.importers.mtgjson import import_mtgjson
        from mtgkb.importers.scryfall import import_scryfall

        before = curated_digest()
        with user_dirs(base):
            import_rules(shared_data / "rules" / "MagicCompRules-20260417.txt")
            scryfall = import_scryfall(shared_data / "cards" / "scryfall-commanders-20260429.json")
            mtgjson = import_mtgjson(shared_data / "cards" / "mtgjson-atomic-merged-20260103.json.gz")
            kb = open_kb()
        _POOL = Pool(base / "data", base / "cache", scryfall, mtgjson, base, kb, before)
    return _POOL


#: Mechanics our reader finds that the subset's categories do not cover (they name the partner and
#: ninjutsu families only).
UNCATEGORISED = frozenset(
    {
        "can-be-your-commander",
        "changeling",
        # The activated keyword abilities of data/mechanics/activated.ttl and haste (issue 21).
        *("haste", "equip", "fortify", "level-up", "outlast", "cycling", "unearth"),
        *("embalm", "eternalize", "encore", "scavenge"),
        *("activated-ability", "mana-ability", "loyalty-ability"),
    }
)


def expected_slugs(record: dict[str, Any], field: str = "categories") -> tuple[set[str], set[str], set[str]]:
    """(mechanics the card has, mechanics it grants to other cards, roles) named by a subset record's
    categories. "references_ninjutsu" is Satoru Umezawa's grant, or nothing for the playtest cards
    whose "fixed commander ninjutsu" only mentions ninjutsu."""
    own: set[str] = set()
    granted: set[str] = set()
    roles: set[str] = set()
    simple = {
        "ninjutsu": "ninjutsu",
        "commander_ninjutsu": "commander-ninjutsu",
        "partner": "partner",
        "partner_with": "partner-with",
        "friends_forever": "partner-friends-forever",
        "choose_a_background": "choose-a-background",
        "doctors_companion": "doctors-companion",
    }
    for category in record[field]:
        if category in simple:
            own.add(simple[category])
        elif category.startswith("partner_variant:"):
            own.add("partner-" + slugify(category.split(":", 1)[1]))
        elif category == "references_ninjutsu":
            if "fixed commander ninjutsu" not in record["oracle_text"].lower():
                granted.add("ninjutsu")
        elif category == "background":
            roles.add("background")
        else:
            raise AssertionError(f"unknown category {category!r} on {record['name']}")
    return own, granted, roles


def load_subset(shared_data: Path) -> list[dict[str, Any]]:
    return json.loads((shared_data / "cards" / "subset-ninjutsu-partner.json").read_text(encoding="utf-8"))[
        "cards"
    ]


def user_state() -> dict[str, Any]:
    """What a refused import must leave alone: the imported files' bytes and the store's fingerprint
    and per-graph triple counts."""
    from mtgkb.app import open_kb
    from mtgkb.core.paths import imports_dir
    from mtgkb.kb.sources import all_sources, fingerprint

    folder = imports_dir()
    files = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.glob("*"))
        if path.is_file()
    }
    kb = open_kb()
    return {"files": files, "fingerprint": fingerprint(all_sources()), "graphs": kb.meta["graphs"]}


def oracle_card(record: dict) -> dict:
    """A Scryfall oracle-cards object made from a subset record."""
    return {
        "object": "card",
        "oracle_id": record["scryfall_oracle_id"],
        "name": record["name"],
        "layout": record.get("layout") or "normal",
        "mana_cost": record["mana_cost"] or "",
        "cmc": record["mana_value"],
        "type_line": record["type_line"],
        "oracle_text": record["oracle_text"],
        "colors": record["colors"],
        "color_identity": record["color_identity"],
        "keywords": record.get("keywords") or [],
        "power": record.get("power"),
        "toughness": record.get("toughness"),
        "legalities": {"commander": (record.get("commander_legality") or "legal").lower()},
    }

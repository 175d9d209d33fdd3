"""A word diff of two texts, as ``git diff --word-diff`` marks one."""

from __future__ import annotations

import difflib
import re


def word_diff(old: str, new: str) -> str:
    """``new`` with the words that changed marked as ``[-removed-]{+added+}``: a long rule that gained
    one sentence shows that sentence, not two copies."""
    before, after = re.split(r"(\s+)", old), re.split(r"(\s+)", new)
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            parts.append("".join(after[j1:j2]))
            continue
        if i2 > i1:
            parts.append("[-" + "".join(before[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + "".join(after[j1:j2]) + "+}")
    return "".join(parts)

"""Starting ``mtgkb`` as a real process, for tests that signal, kill or time it."""

from __future__ import annotations

import os
import subprocess
import sys


def start_mtgkb(*args: str) -> subprocess.Popen:
    """``python -m mtgkb ARGS`` with this environment, text pipes for stdout and stderr."""
    return subprocess.Popen(
        [sys.executable, "-m", "mtgkb", *args],
        env=os.environ.copy(),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

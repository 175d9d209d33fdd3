"""A process that runs mtgkb commands for the fuzz tests, in its own interpreter: a query stopped by its
time limit keeps computing inside Oxigraph (it cannot be cancelled there), so the tests run commands
here and start a fresh worker whenever a stopped query is still at work, instead of letting such
queries pile up in the test process.

Protocol: one JSON object per line on stdin (``{"args": [...], "input": "..."}``), one per line on
stdout: the exit status, stdout (its first 64 KiB as text, and its size), stderr, the traceback of an
exception that was not a clean exit, and whether a query is still running.
"""

from __future__ import annotations

import json
import sys
import threading
import traceback
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from mtgkb.cli import _register_commands, cli

SHOWN = 64 * 1024


class Worker:
    """The test side: starts ``python tests/cli_worker.py`` and sends it commands."""

    def __init__(self) -> None:
        self.process: Any = None

    def run(self, args: list[str], input: str | None = None, timeout: float = 20) -> dict[str, Any]:
        """The answer to one command; a worker left with a query at work is replaced afterwards."""
        import select
        import subprocess

        if self.process is None or self.process.poll() is not None:
            import os

            import mtgkb

            # The worker imports the same mtgkb as the tests, wherever the tests found it.
            root = str(Path(mtgkb.__file__).resolve().parents[1])
            path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
            self.process = subprocess.Popen(
                [sys.executable, __file__],
                env=dict(os.environ, PYTHONPATH=path),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            )
        self.process.stdin.write(json.dumps({"args": args, "input": input}) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            self.close()
            raise AssertionError(f"mtgkb {args!r} ran longer than {timeout} s")
        line = self.process.stdout.readline()
        if not line:
            self.close()
            raise AssertionError(f"the worker died running mtgkb {args!r}")
        answer = json.loads(line)
        if answer["busy"]:
            self.close()
        return answer

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def serve() -> None:
    _register_commands()
    for line in sys.stdin:
        request = json.loads(line)
        result = CliRunner().invoke(cli, request["args"], input=request["input"])
        error = None
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            error = "".join(traceback.format_exception(result.exception))
        busy = any(thread.name == "mtgkb-query" and thread.is_alive() for thread in threading.enumerate())
        answer = {
            "exit_code": result.exit_code,
            "stdout": result.stdout_bytes[:SHOWN].decode("utf-8", "replace"),
            "stdout_size": len(result.stdout_bytes),
            "stderr": result.stderr,
            "exception": error,
            "busy": busy,
        }
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()

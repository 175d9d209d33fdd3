"""``mtgkb export -o`` pointed where a careless tool would do damage: devices, named pipes, symlinks,
and folders holding other programs' temporary files."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mtgkb.core.nquads import atomic_text_file, temporary_sibling

TURN = ["export", "--format", "nt", "--graph", "data/turn", "-q"]


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def _export_to(run_cli, target: Path) -> None:
    result = run_cli(*TURN, "-o", str(target))
    assert result.exit_code == 0, result.output


def test_a_named_pipe_is_written_through_and_stays_a_pipe(run_cli, kb, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    _export_to(run_cli, pipe)
    reader.join(timeout=60)
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert received and received[0].count(b"\n") > 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_is_written_through_and_stays_a_device(run_cli, kb, tmp_path: Path) -> None:
    # A private copy of /dev/null: if the export ever replaced it, only this test's folder suffers.
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    _export_to(run_cli, device)
    assert stat.S_ISCHR(device.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_a_symlink_to_a_file_is_refused_and_the_file_left_alone(run_cli, kb, tmp_path: Path) -> None:
    # The trap of a shared folder: someone else's link where the export is to go, pointing at a file
    # of the user's. Writing through it would replace that file without a word.
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "notes.txt"
    target.write_text("the user's own file\n")
    link = tmp_path / "turn.nt"
    link.symlink_to(target)
    dangling = tmp_path / "new.nt"
    dangling.symlink_to(tmp_path / "real" / "new.nt")
    for output in (link, dangling):
        result = run_cli(*TURN, "-o", str(output))
        assert result.exit_code == 2, result.output
        assert "symbolic link" in result.stderr and str(output) in result.stderr
        assert "Traceback" not in result.output
        assert output.is_symlink()
    assert target.read_text() == "the user's own file\n"
    assert not (tmp_path / "real" / "new.nt").exists()
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["notes.txt"]
    # The hint names the file itself, which is written when given.
    result = run_cli(*TURN, "-o", str(target))
    assert result.exit_code == 0 and target.read_text().count("\n") > 10


def test_a_symlink_to_a_pipe_is_written_through(run_cli, kb, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    link = tmp_path / "out.nt"
    link.symlink_to(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    _export_to(run_cli, link)
    reader.join(timeout=60)
    assert received and received[0].count(b"\n") > 10
    assert link.is_symlink() and stat.S_ISFIFO(pipe.lstat().st_mode)


def test_only_our_own_abandoned_temporary_files_are_removed(run_cli, kb, tmp_path: Path) -> None:
    dead = _dead_pid()
    someone_elses = [tmp_path / f".notes.{dead}.tmp", tmp_path / f".turn.nt.{dead}.tmp"]
    ours_abandoned = temporary_sibling(tmp_path / "other.nt", pid=dead)
    ours_alive = temporary_sibling(tmp_path / "other.nt", pid=os.getppid())
    for path in [*someone_elses, ours_abandoned, ours_alive]:
        path.write_text("keep me")
    _export_to(run_cli, tmp_path / "turn.nt")
    assert all(path.read_text() == "keep me" for path in someone_elses)
    assert ours_alive.exists() and not ours_abandoned.exists()


def test_a_failed_write_leaves_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "out.nt"
    target.write_text("previous\n")
    with pytest.raises(RuntimeError), atomic_text_file(target) as stream:
        stream.write("half")
        raise RuntimeError("the writer failed")
    assert target.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.nt"]

"""Files written whole, with the modes the user's umask gives."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from paperkg import atomic
from paperkg.atomic import atomic_open


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_the_umask_is_read_without_being_set(monkeypatch):
    real = os.umask(0o027)
    os.umask(0o027)
    try:

        def set_umask(mask):  # another thread's files would get this mask meanwhile
            raise AssertionError("the umask was set to read it")

        monkeypatch.setattr(os, "umask", set_umask)
        assert atomic._umask() == 0o027
    finally:
        monkeypatch.undo()
        os.umask(real)


def test_a_file_gets_the_mode_of_the_umask(tmp_path):
    real = os.umask(0o027)
    try:
        with atomic_open(tmp_path / "out.txt") as f:
            f.write("done")
    finally:
        os.umask(real)
    assert stat.S_IMODE((tmp_path / "out.txt").stat().st_mode) == 0o640

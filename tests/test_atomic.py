"""Files and folders written whole, with the modes the user's umask gives."""

from __future__ import annotations

import os
import stat

import pytest

from paperkg.atomic import atomic_directory, atomic_open


def test_a_file_gets_the_mode_of_the_umask(tmp_path):
    real = os.umask(0o027)
    try:
        with atomic_open(tmp_path / "out.txt") as f:
            f.write("done")
    finally:
        os.umask(real)
    assert stat.S_IMODE((tmp_path / "out.txt").stat().st_mode) == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    (tmp_path / "out.txt").write_text("old")
    with pytest.raises(RuntimeError), atomic_open(tmp_path / "out.txt") as f:
        f.write("half")
        raise RuntimeError("stopped")
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    assert (tmp_path / "out.txt").read_text() == "old"


def test_a_folder_is_replaced_whole(tmp_path):
    (tmp_path / "bundle").mkdir()
    (tmp_path / "bundle" / "old.csv").write_text("old")
    with atomic_directory(tmp_path / "bundle") as folder:
        (folder / "new.csv").write_text("new")
    assert [p.name for p in tmp_path.iterdir()] == ["bundle"]
    assert [p.name for p in (tmp_path / "bundle").iterdir()] == ["new.csv"]

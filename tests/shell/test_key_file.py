"""The User API key's file (adapters/user_key.py): the key never enters an existing file."""

import os
import stat

import pytest

from modbot.adapters.user_key import SavedKey, UserKeyError, load_key, save_key

OLD = SavedKey("http://forum", "modbot", "old-key", "c0")
NEW = SavedKey("http://forum", "modbot", "new-key", "c1")


def test_a_reader_of_the_old_world_readable_file_never_reads_the_new_key(tmp_path):
    path = tmp_path / "modbot.key"
    path.write_text("the old file, world-readable\n")
    path.chmod(0o644)
    with path.open() as reader:  # someone had it open before the login
        save_key(path, NEW)
        assert reader.read() == "the old file, world-readable\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_key(path).key == "new-key"
    assert [p.name for p in tmp_path.iterdir()] == ["modbot.key"]  # nothing left beside it


def test_a_login_over_an_earlier_key_replaces_it(tmp_path):
    path = save_key(tmp_path / "modbot.key", OLD)
    save_key(path, NEW)
    assert load_key(path) == NEW and stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_symbolic_link_at_the_key_path_is_refused(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("")
    os.symlink(target, tmp_path / "modbot.key")
    with pytest.raises(UserKeyError, match="symbolic link"):
        save_key(tmp_path / "modbot.key", NEW)
    assert target.read_text() == ""

"""The kernel cache saves one process (or thread) at a time: two saves of new signatures of one
kernel keep both entries, each naming its own code (``_core/cache.py``, ``LockedCacheFile``;
the suite's pytest-xdist workers and a sweep's Ray workers compile into one cache at once)."""

from __future__ import annotations

import threading

import pytest
from numba.core import caching

import impulse2d  # noqa: F401  (installs the package's cache locator)
from impulse2d._core.cache import LOCK_NAME, LockedCacheFile


def _pair(tmp_path, cls):
    return (cls(str(tmp_path), "kernel-12.py311", "stamp"),
            cls(str(tmp_path), "kernel-12.py311", "stamp"))


def _race(first, second, monkeypatch):
    """``first`` saves key ``a`` and is held as it writes the index (after it read the index
    and picked a data file name) until ``second`` has had the chance to save key ``b``; returns
    whether ``second`` finished before ``first`` was let go (it had not waited)."""
    inside, go = threading.Event(), threading.Event()
    save_index = type(first)._save_index

    def held(self, overloads):
        if self is first:
            inside.set()
            assert go.wait(30)
        save_index(self, overloads)

    monkeypatch.setattr(type(first), "_save_index", held)
    a = threading.Thread(target=first.save, args=("a", "code of a"))
    a.start()
    assert inside.wait(30)
    b = threading.Thread(target=second.save, args=("b", "code of b"))
    b.start()
    b.join(0.5)
    second_first = not b.is_alive()
    go.set()
    a.join(30)
    b.join(30)
    return second_first


def test_two_saves_at_once_keep_both_entries_each_naming_its_own_code(tmp_path, monkeypatch):
    first, second = _pair(tmp_path, LockedCacheFile)
    assert not _race(first, second, monkeypatch)  # the second waited for the first's lock
    index = first._load_index()
    assert set(index) == {"a", "b"} and len(set(index.values())) == 2
    assert first.load("a") == "code of a" and second.load("b") == "code of b"
    assert (tmp_path / LOCK_NAME).exists()


def test_numbas_own_save_loses_an_entry_in_the_same_race(tmp_path, monkeypatch):
    """The race above without the lock: both saves read an empty index and pick the same data
    file name; the index written last keeps one entry of the two."""
    first, second = _pair(tmp_path, caching.IndexDataCacheFile)
    assert _race(first, second, monkeypatch)
    assert len(first._load_index()) == 1


def test_an_index_entry_is_written_after_its_data(tmp_path, monkeypatch):
    """A save that fails writing its data leaves the index as it was: a reader, which takes no
    lock, never finds an entry whose code is not there."""
    cache = LockedCacheFile(str(tmp_path), "kernel-12.py311", "stamp")
    cache.save("a", "code of a")

    def fails(self, name, data):
        raise OSError("disk full")

    monkeypatch.setattr(LockedCacheFile, "_save_data", fails)
    with pytest.raises(OSError):
        cache.save("b", "code of b")
    assert set(cache._load_index()) == {"a"}


def test_the_packages_kernels_save_through_the_lock():
    from impulse2d._collision import geometry

    cache = getattr(geometry.mass_properties, "_cache", None)
    if cache is None:
        pytest.skip("needs the JIT and its cache")
    assert type(cache._cache_file) is LockedCacheFile


def test_an_unchanged_index_is_read_once_and_a_replaced_one_again(tmp_path, monkeypatch):
    """An index read is kept while its file is unchanged (a warm first step asks each unit's
    index twice: whether it is cached, then to load it); a save, by any reader of the file,
    replaces the file, and the next read sees its entry. Each read is a copy of its own."""
    writer, reader = _pair(tmp_path, LockedCacheFile)
    writer.save("a", "code of a")
    reads = []
    numbas = caching.IndexDataCacheFile._load_index

    def counted(self):
        reads.append(self)
        return numbas(self)

    monkeypatch.setattr(caching.IndexDataCacheFile, "_load_index", counted)
    first = reader._load_index()
    first["mine"] = "a caller's own entry"
    second = reader._load_index()
    assert second == {"a": writer._load_index()["a"]}
    assert len(reads) == 1
    writer.save("b", "code of b")  # (reads afresh under the lock: one read more)
    assert len(reads) == 2
    third = reader._load_index()
    assert set(third) == {"a", "b"} and len(reads) == 3
    assert reader.load("b") == "code of b"

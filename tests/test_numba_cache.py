"""numba's cache shared by processes: an index and its data files stay together."""

import hashlib
import multiprocessing
import time

from numba.core.caching import IndexDataCacheFile, InTreeCacheLocator

from simulate import _numba_cache  # locks numba's cache


def _save_slowly(folder: str, key: str, started) -> None:
    """Save one specialization, both processes at once, pausing between reading the
    index and writing it: the window in which the other's save was lost or crossed."""
    read_index = IndexDataCacheFile._load_index

    def read_then_wait(self):
        index = read_index(self)
        time.sleep(0.3)
        return index

    IndexDataCacheFile._load_index = read_then_wait
    started.wait()
    IndexDataCacheFile(folder, "kernel", "stamp").save(key, f"code of {key}")


def test_two_processes_saving_at_once_keep_both_specializations(tmp_path):
    context = multiprocessing.get_context("fork")
    started = context.Barrier(2)
    savers = [
        context.Process(target=_save_slowly, args=(str(tmp_path), key, started))
        for key in ("int64", "float64")
    ]
    for saver in savers:
        saver.start()
    for saver in savers:
        saver.join(timeout=60)
        assert saver.exitcode == 0
    cache = IndexDataCacheFile(str(tmp_path), "kernel", "stamp")
    assert cache.load("int64") == "code of int64"
    assert cache.load("float64") == "code of float64"


def test_a_kernel_is_stale_once_any_file_of_the_package_changes(tmp_path, monkeypatch):
    """A kernel's cached code holds the kernels it calls from other files: its key covers
    every source file of the package, so an edit of one makes the others' code stale; a
    function outside the package keeps numba's own key (its file's hash)."""
    package = tmp_path / "package"
    package.mkdir()
    (package / "_engine.py").write_text("def play():\n    return decide()\n")
    (package / "_strategy.py").write_text("def decide():\n    return 1\n")
    monkeypatch.setattr(_numba_cache, "PACKAGE", package.resolve())
    _numba_cache.package_stamp.cache_clear()
    try:
        engine = InTreeCacheLocator(lambda: None, str(package / "_engine.py"))
        before = engine.get_source_stamp()
        (package / "_strategy.py").write_text("def decide():\n    return 2\n")
        _numba_cache.package_stamp.cache_clear()
        assert engine.get_source_stamp() != before
    finally:
        _numba_cache.package_stamp.cache_clear()  # the real package's, at the next call
    outside = tmp_path / "other.py"
    outside.write_text("x = 1\n")
    stamp = InTreeCacheLocator(lambda: None, str(outside)).get_source_stamp()
    assert stamp == hashlib.sha256(outside.read_bytes()).digest()

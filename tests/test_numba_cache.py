"""numba's cache shared by processes: an index and its data files stay together."""

import multiprocessing
import time

from numba.core.caching import IndexDataCacheFile

import simulate  # noqa: F401  (locks numba's cache)


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

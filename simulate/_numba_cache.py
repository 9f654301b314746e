"""numba's on-disk cache made safe for several processes sharing it.

numba numbers a function's cached specializations by the index it has just read, then
writes the index and the data file apart. Two processes saving different
specializations of one function at once (test workers, Dask workers on one machine)
can leave an index naming one and a file holding the other, and the next process to
load it runs the wrong machine code (numba issues 4807 and 10128, open). Each save
and each load here holds a lock on the function's index, so an index and its files
are always read and written together.
"""

from functools import wraps

from filelock import FileLock
from numba.core.caching import IndexDataCacheFile


def _locked(method):
    @wraps(method)
    def under_lock(self, *args):
        with FileLock(self._index_path + ".lock"):
            return method(self, *args)

    under_lock.studsim_locked = True
    return under_lock


def lock_numba_cache() -> None:
    """Hold a file lock around every save and load of numba's cache (once per process)."""
    if getattr(IndexDataCacheFile.save, "studsim_locked", False):
        return
    IndexDataCacheFile.save = _locked(IndexDataCacheFile.save)
    IndexDataCacheFile.load = _locked(IndexDataCacheFile.load)


lock_numba_cache()  # on import: the package imports this module before any other

"""numba's on-disk cache made safe for several processes sharing it.

numba numbers a function's cached specializations by the index it has just read, then
writes the index and the data file apart. Two processes saving different
specializations of one function at once (test workers, Dask workers on one machine)
can leave an index naming one and a file holding the other, and the next process to
load it runs the wrong machine code (numba issues 4807 and 10128, open). Each save
and each load here holds a lock on the function's index, so an index and its files
are always read and written together.

numba also keys a function's cached code to its own file only, though the code holds
the kernels it calls from other files and the constants it reads (``codes``): an edit
of ``_strategy.py`` left ``_engine.py``'s cached kernels running the old rules. The
package's kernels are keyed here to every source file of the package instead.
"""

import hashlib
from functools import cache, wraps
from pathlib import Path

from filelock import FileLock
from numba.core import caching
from numba.core.caching import IndexDataCacheFile

PACKAGE = Path(__file__).resolve().parent


@cache
def package_stamp() -> bytes:
    """A hash of every source file of the package (once per process)."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.digest()


def _locked(method):
    @wraps(method)
    def under_lock(self, *args):
        with FileLock(self._index_path + ".lock"):
            return method(self, *args)

    under_lock.studsim_locked = True
    return under_lock


def _stamped_by_package(get_source_stamp):
    @wraps(get_source_stamp)
    def stamp(self):
        if Path(self._py_file).resolve().parent == PACKAGE:
            return package_stamp()
        return get_source_stamp(self)

    return stamp


def lock_numba_cache() -> None:
    """Hold a file lock around every save and load of numba's cache, and key the
    package's kernels to all its sources (once per process)."""
    if getattr(IndexDataCacheFile.save, "studsim_locked", False):
        return
    IndexDataCacheFile.save = _locked(IndexDataCacheFile.save)
    IndexDataCacheFile.load = _locked(IndexDataCacheFile.load)
    mixin = getattr(caching, "_SourceFileBackedLocatorMixin", None)  # numba's, not public
    if mixin is not None:
        mixin.get_source_stamp = _stamped_by_package(mixin.get_source_stamp)


lock_numba_cache()  # on import: the package imports this module before any other

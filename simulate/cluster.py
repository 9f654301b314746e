"""Work shared out on a Dask cluster (``pip install "studsim[cluster]"``).

A long computation here is already a list of independent units (blocks of rounds,
ranges of hand classes), each a pure function of its inputs. On a cluster every unit
is a Dask task; the results come back in the units' order, so totals are added in
the same order as on one machine and agree with it bit for bit, however many workers
and whatever order they finish in. A worker lost mid-run has its units redone
elsewhere by Dask's scheduler.

>>> with cluster_client(None) as client:
...     client is None
True
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

__all__ = [
    "ClusterError",
    "cluster_client",
    "current_client",
    "start_client",
    "takes_client",
    "unit_results",
    "using",
]

_CURRENT: ContextVar[Any] = ContextVar("studsim_client", default=None)


class ClusterError(ValueError):
    """A cluster that cannot be started or reached, or dask not installed."""


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            'running on a cluster needs dask\'s distributed: pip install "studsim[cluster]"'
        ) from None
    return distributed


def start_client(spec: str):
    """A ``distributed.Client`` for ``spec``: ``local`` (one worker process per core) or
    ``local:N`` (N processes), each process's numba threads sharing out this machine's
    cores; an address (``tcp://host:8786``) of a running scheduler; or the path of a
    scheduler file. The caller closes it (a local cluster closes with it)."""
    distributed = _distributed()
    if spec == "local" or spec.startswith("local:"):
        count = spec.removeprefix("local").removeprefix(":")
        if count and not (count.isdigit() and int(count) > 0):
            raise ClusterError(f"--cluster {spec}: local:N needs a positive number of workers")
        workers = int(count) if count else os.cpu_count() or 1
        threads = max(1, (os.cpu_count() or 1) // workers)
        return distributed.Client(  # starts a LocalCluster, closed with the client
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env={"NUMBA_NUM_THREADS": str(threads)},
        )
    try:
        if "://" in spec:
            return distributed.Client(spec, timeout="20s")
        if Path(spec).is_file():
            return distributed.Client(scheduler_file=spec, timeout="20s")
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"--cluster {spec}: cannot reach the scheduler ({error})") from None
    raise ClusterError(
        f"--cluster {spec}: expected local, local:N, a scheduler address (tcp://host:port) "
        "or a scheduler file"
    )


def current_client():
    """The client of the innermost ``using`` block (None: run here)."""
    return _CURRENT.get()


@contextmanager
def using(client) -> Iterator[Any]:
    """Within the block, simulations and exact analyses share their units out on
    ``client`` (a ``distributed.Client``; None leaves the current one)."""
    if client is None:
        yield current_client()
        return
    token = _CURRENT.set(client)
    try:
        yield client
    finally:
        _CURRENT.reset(token)


def takes_client(function: Callable) -> Callable:
    """Give ``function`` a keyword ``client``: a ``distributed.Client`` on whose workers
    its simulations and exact analyses run (``using``), with the same figures."""

    @functools.wraps(function)
    def wrapper(*args, client=None, **kwargs):
        with using(client):
            return function(*args, **kwargs)

    wrapper.__doc__ = (function.__doc__ or "") + (
        "\n\n    ``client``: a Dask client to run on (see ``simulate.cluster``)."
    )
    return wrapper


@contextmanager
def cluster_client(spec: str | None) -> Iterator[Any]:
    """``start_client(spec)``, used (``using``) for the block and closed after it; None
    without a spec."""
    if spec is None:
        yield None
        return
    client = start_client(spec)
    try:
        with using(client):
            yield client
    finally:
        client.close()


def unit_results(
    client, function: Callable, units: Sequence, shared: Any = None, in_order: bool = True
) -> Iterator[tuple[int, Any]]:
    """``(i, function(shared, units[i]))`` for every unit, computed here one after the
    other when ``client`` is None, else on ``client``'s workers: in the units' order,
    each as soon as it and every unit before it are done, or (not ``in_order``) as each
    is done. ``shared``, the inputs common to every unit, goes with each unit (keep it
    small: a unit is redone from it alone where a worker is lost). Stopping early
    (Ctrl-C, an error) cancels the units not yet done."""
    if client is None:
        for i, unit in enumerate(units):
            yield i, function(shared, unit)
        return
    distributed = _distributed()
    futures = [client.submit(function, shared, unit, pure=False) for unit in units]
    position = {future.key: i for i, future in enumerate(futures)}
    waiting: dict[int, Any] = {}
    following = 0
    try:
        for future in distributed.as_completed(futures):
            i = position[future.key]
            result = future.result()
            future.release()
            if not in_order:
                yield i, result
                continue
            waiting[i] = result
            while following in waiting:
                yield following, waiting.pop(following)
                following += 1
    finally:
        client.cancel([future for future in futures if not future.done()])

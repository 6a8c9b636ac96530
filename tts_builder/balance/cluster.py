"""Games on a Dask cluster: ``simulate --cluster tcp://host:8786`` runs the same batches of
games the local process pool runs, on the workers of an existing Dask ``distributed`` scheduler
(a laptop's ``dask scheduler`` / ``dask worker``, or Slurm/PBS through ``dask-jobqueue``). A game
depends only on its setup and its number, so the records, the report and its bytes are the same
wherever the batches run. Dask is the ``cluster`` extra: without it, ``--cluster`` says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from ..errors import BuildError

#: Seconds to wait for the scheduler to answer before saying it cannot be reached.
CONNECT_TIMEOUT = 10


@contextmanager
def cluster_executor(address: str) -> Iterator[Executor]:
    """A ``concurrent.futures`` executor whose work runs on the Dask scheduler at ``address``
    (its workers need tts-builder installed, the same version); BuildError if Dask is missing
    or the scheduler does not answer."""
    try:
        from distributed import Client
    except ImportError:
        raise BuildError(
            f"--cluster {address}: needs Dask's distributed: pip install 'tts-builder[cluster]'"
        ) from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        detail = " ".join(str(err).split()) or type(err).__name__
        raise BuildError(f"--cluster {address}: cannot reach the scheduler ({detail})") from None
    with client:
        yield client.get_executor(pure=False)

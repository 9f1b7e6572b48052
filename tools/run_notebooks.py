"""Re-execute notebooks in place from a fresh kernel, storing outputs and widget state.

    python tools/run_notebooks.py notebooks/*.ipynb

Prints each notebook's execution time. Runs with the notebook's folder as working directory.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from queue import Empty

import nbformat
from nbclient import NotebookClient

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def poll_in_slices(channel, slice_s: float = 0.5) -> None:
    """Make ``channel.get_msg(timeout=T)`` poll in short slices until T has passed.

    With widget traffic on the wire, one long asyncio poll of a zmq socket can miss the reply's
    wake-up and sleep out its whole timeout (a known nbclient behaviour); polling again every
    ``slice_s`` seconds picks the message up at once.
    """
    get_msg = channel.get_msg

    async def sliced(timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = slice_s if deadline is None else min(slice_s, deadline - time.monotonic())
            try:
                return await get_msg(timeout=max(left, 0.0))
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise

    channel.get_msg = sliced


class Client(NotebookClient):
    async def async_start_new_kernel_client(self, **kwargs):
        kc = await super().async_start_new_kernel_client(**kwargs)
        poll_in_slices(kc.shell_channel)
        poll_in_slices(kc.iopub_channel)
        return kc


def run(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = KERNELSPEC
    client = Client(
        nb,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=True,
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    nbformat.write(nb, path)
    return elapsed


def main(paths: list[str]) -> None:
    if not paths:
        sys.exit("usage: run_notebooks.py NOTEBOOK.ipynb ...")
    for p in paths:
        elapsed = run(Path(p))
        print(f"{p}: executed in {elapsed:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])

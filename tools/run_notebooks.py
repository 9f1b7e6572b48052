"""Re-execute notebooks in place from a fresh kernel, storing outputs and widget state.

    python tools/run_notebooks.py notebooks/*.ipynb
    python tools/run_notebooks.py --output-dir DIR --allow-errors --timeout 120 notebooks/*.ipynb

Prints each notebook's execution time. Runs with the notebook's folder as working directory.
With ``--output-dir`` the executed copies go there and the notebooks stay as they are; with
``--allow-errors`` a failing cell is recorded and execution goes on; ``--timeout`` bounds each
cell (seconds), so a stalled kernel cannot hold a CI job to its limit.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from queue import Empty

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from helpers.plots import CHECK_TEXT_ENV  # noqa: E402

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


def run(path: Path, output_dir: Path | None = None, allow_errors: bool = False, timeout: int = 600) -> float:
    # the kernel checks every figure it shows (helpers.plots.use_course_style): problems are reported
    os.environ.setdefault(CHECK_TEXT_ENV, "1")
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = KERNELSPEC
    client = Client(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=True,
        allow_errors=allow_errors,
    )
    start = time.perf_counter()
    try:
        client.execute()
    except Exception:
        if output_dir is not None:  # a copy for inspection is kept however far it got
            _write(nb, output_dir / path.name)
        raise
    elapsed = time.perf_counter() - start
    _write(nb, path if output_dir is None else output_dir / path.name)
    return elapsed


def _write(nb, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--output-dir", type=Path, help="write executed copies here instead of in place")
    parser.add_argument("--allow-errors", action="store_true", help="record failing cells and go on")
    parser.add_argument("--timeout", type=int, default=600, help="seconds allowed per cell (default 600)")
    args = parser.parse_args(argv)
    for p in args.notebooks:
        elapsed = run(p, args.output_dir, args.allow_errors, args.timeout)
        print(f"{p}: executed in {elapsed:.1f} s")


if __name__ == "__main__":
    main()

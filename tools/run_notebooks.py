"""Re-execute notebooks in place from a fresh kernel, storing outputs and widget state.

    python tools/run_notebooks.py notebooks/*.ipynb

Prints each notebook's execution time. Runs with the notebook's folder as working directory.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def run(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = KERNELSPEC
    client = NotebookClient(
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

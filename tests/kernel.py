"""Running code in a real Jupyter kernel from a test, and reading only the replies to it.

``start_new_kernel`` sends kernel-info requests while it waits for the kernel; their replies can
still be queued on the shell channel when a test sends its own request. Every read here therefore
skips messages whose parent is another request, until the one it waits for arrives.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from jupyter_client.manager import start_new_kernel

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def kernel(env: dict[str, str] | None = None) -> Iterator:
    """A fresh python3 kernel in the repository root; yields its client, shuts it down after."""
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(ROOT),
                                       env=dict(os.environ) if env is None else env)
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def reply_to(client, msg_id: str, timeout: float) -> dict:
    """The shell reply whose parent is ``msg_id``; replies to earlier requests are skipped."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no reply to request {msg_id} within {timeout:.0f} s")
        try:
            message = client.get_shell_msg(timeout=left)
        except queue.Empty:
            continue
        if message["parent_header"].get("msg_id") == msg_id:
            return message


def execute(client, code: str, timeout: float = 120, quiet_s: float = 30) -> tuple[dict, list[dict]]:
    """Run ``code``; return the shell reply's content and every output message of that request
    (the output channel read until the kernel says "idle" for it). ``quiet_s``: the longest wait
    for one output message."""
    msg_id = client.execute(code, allow_stdin=False)
    content = reply_to(client, msg_id, timeout)["content"]
    outputs = []
    while True:
        try:
            message = client.get_iopub_msg(timeout=quiet_s)
        except queue.Empty:
            kinds = sorted({m["msg_type"] for m in outputs})
            raise AssertionError(f"no 'idle' from the kernel after {quiet_s:.0f} s; messages seen: {kinds}") from None
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        if message["msg_type"] == "status":
            if message["content"]["execution_state"] == "idle":
                return content, outputs
            continue
        outputs.append(message)

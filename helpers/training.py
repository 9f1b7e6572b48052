"""A seeded training loop with a progress bar (one model, or several side by side), loss by
position, and the settings of lessons 08 and 09's experiment. The tasks are in ``tasks.py``."""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from ._checks import check_finite, check_int
from .compat import require
from .tasks import LetterDigitCopy, Task

# AdamW(fused=True) on the CPU, which every training run here uses, arrived in torch 2.4.
require("torch", "2.4", why="AdamW's fused CPU kernel")


def _in_notebook_kernel() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    ip = shell.get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None


PROGRESS_MARK = "course_progress_bar"


def progress_line(description: str, total: int) -> str:
    """The plain-text form of a progress bar: ``"<description>: <total> steps"``."""
    return f"{description}: {total} steps"


class _Progress:
    """A progress bar that prints nothing a notebook would keep as text.

    In a Jupyter kernel with ipywidgets (7 or 8): tqdm's widget bar, displayed beside a plain-text
    line (:func:`progress_line`: what is trained and for how many steps, nothing timed or trained,
    so it is the same on every machine) that a saved notebook shows where no widget can be drawn
    (GitHub, the course site, an untrusted notebook). The output's metadata carries
    ``PROGRESS_MARK``, which tells it from an explorer's output. Elsewhere: tqdm's text bar on
    stderr. ``enabled=False``: nothing at all.

    The bar is redrawn at most ``REFRESHES`` times over a run, after every ``total / REFRESHES``
    steps, however long the steps take. A widget bar sends its updates as kernel messages, and
    a time-based rate would send more of them the slower the machine: a few thousand queued
    messages overflow the kernel's output channel, which then drops some, and a client waiting
    for the cell's end (nbval, nbclient) never sees it.
    """

    REFRESHES = 20

    def __init__(self, total: int, description: str, enabled: bool):
        self.bar = None
        self.every = max(1, math.ceil(total / self.REFRESHES))
        self.pending = 0
        self.loss: float | None = None
        if not enabled:
            return
        if _in_notebook_kernel():
            try:
                from IPython.display import display
                from tqdm.notebook import tqdm as notebook_tqdm
            except ImportError:
                return
            try:
                self.bar = notebook_tqdm(total=total, desc=description, display=False, leave=True)
            except ImportError:  # tqdm found no usable ipywidgets
                return
            view = {"version_major": 2, "version_minor": 0, "model_id": self.bar.container.model_id}
            display({"application/vnd.jupyter.widget-view+json": view, "text/plain": progress_line(description, total)},
                    metadata={PROGRESS_MARK: True}, raw=True)
        else:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=description, file=sys.stderr, leave=False)

    def update(self, loss: float, steps: int = 1) -> None:
        if self.bar is None:
            return
        self.pending += steps
        self.loss = loss
        if self.pending >= self.every or self.bar.n + self.pending >= self.bar.total:
            self._flush()

    def _flush(self) -> None:
        if self.pending:
            self.bar.set_postfix_str(f"loss {self.loss:.3f}", refresh=False)
            self.bar.update(self.pending)
            self.pending = 0

    def close(self) -> None:
        if self.bar is not None:
            self._flush()
            self.bar.close()


def _model_device(model: nn.Module) -> torch.device:
    parameter = next(model.parameters(), None)
    return torch.device("cpu") if parameter is None else parameter.device


def _adamw(model: nn.Module, lr: float) -> torch.optim.Optimizer:
    """AdamW without weight decay; PyTorch's fused kernel where the parameters' device has one
    (CPU and CUDA): a third of the time of the default for a model this small."""
    parameters = list(model.parameters())
    if parameters and all(p.device.type in ("cpu", "cuda") for p in parameters):
        return torch.optim.AdamW(parameters, lr=lr, weight_decay=0.0, fused=True)
    return torch.optim.AdamW(parameters, lr=lr, weight_decay=0.0)


def learning_rate(step: int, steps: int, lr: float, warmup: int) -> float:
    """Linear warm-up over ``warmup`` steps, then cosine decay to lr/10 at the last step."""
    if step < warmup:
        return lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, steps - 1 - warmup)
    return lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))


def _check_training(model, task, steps, batch, length, lr, seed) -> tuple[int, int, int, float, int]:
    steps = check_int("steps", steps, 1)
    batch = check_int("batch", batch, 1)
    length = check_int("length", length, 1)
    lr = check_finite("lr", lr)
    if lr <= 0:
        raise ValueError(f"lr must be a finite number > 0, got {lr}")
    seed = check_int("seed", seed, 0)
    if not isinstance(task, Task):
        raise TypeError(f"task must be a helpers.Task, got {type(task).__name__}")
    models = model.values() if isinstance(model, Mapping) else [model]
    for one in models:
        if not isinstance(one, nn.Module):
            raise TypeError(f"model must be a torch.nn.Module, got {type(one).__name__}")
        vocab = getattr(getattr(one, "config", None), "vocab_size", None)
        if vocab is not None and vocab != task.vocab_size:
            raise ValueError(f"the model's vocab_size = {vocab} differs from the task's vocab_size = {task.vocab_size}")
    return steps, batch, length, lr, seed


def _run_steps(model: nn.Module, task: Task, steps: int, batch: int, length: int, lr: float, seed: int,
               record: Callable[[float], None], stop: threading.Event | None = None) -> None:
    """The training loop itself: AdamW, fresh seeded batches, the warm-up/cosine schedule;
    ``record`` receives each step's loss. Leaves the model's train/eval mode as it found it."""
    device = _model_device(model)
    generator = torch.Generator().manual_seed(seed)
    optimiser = _adamw(model, lr)
    warmup = min(30, max(1, steps // 10))
    was_training = model.training
    model.train()
    try:
        for step in range(steps):
            if stop is not None and stop.is_set():
                return
            for group in optimiser.param_groups:
                group["lr"] = learning_rate(step, steps, lr, warmup)
            inputs, targets = task.sample(batch, length, generator)
            inputs, targets = inputs.to(device), targets.to(device)
            logits = model(inputs)
            loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            record(loss.item())
    finally:
        model.train(was_training)


def train(
    model: nn.Module,
    task: Task,
    *,
    steps: int,
    batch: int = 32,
    length: int = 64,
    lr: float = 1e-2,
    seed: int = 0,
    progress: bool = True,
    description: str | None = None,
    threads: int | None = 1,
) -> list[float]:
    """Train ``model`` (tokens → logits) on fresh batches of ``task`` with AdamW and return the
    loss of every step (nats, mean next-token cross-entropy).

    Batches come from a generator seeded with ``seed``, so the same model initialisation and
    seed give the same run. The learning rate warms up linearly over the first 10 % of steps
    (at most 30), then decays along a cosine to lr/10 (``learning_rate``). ``threads`` sets
    torch's CPU threads for the run and restores the previous setting afterwards (``None``: as
    they are). The last digits of every loss depend on it, and a few hundred steps turn them
    into visibly different models, so the default, one thread, gives the same run everywhere.
    """
    steps, batch, length, lr, seed = _check_training(model, task, steps, batch, length, lr, seed)
    threads = None if threads is None else check_int("threads", threads, 1)
    previous_threads = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    bar = _Progress(steps, description or getattr(getattr(model, "scheme", None), "name", "training"), progress)
    losses: list[float] = []

    def record(loss: float) -> None:
        losses.append(loss)
        bar.update(loss)

    try:
        _run_steps(model, task, steps, batch, length, lr, seed, record)
    finally:
        bar.close()
        torch.set_num_threads(previous_threads)
    return losses


def train_many(
    models: Mapping[str, nn.Module],
    task: Task,
    *,
    steps: int,
    batch: int = 32,
    length: int = 64,
    lr: float = 1e-2,
    seed: int = 0,
    workers: int = 2,
    progress: bool = True,
) -> dict[str, list[float]]:
    """Train every model of ``models`` (name → model) as :func:`train` would, with the same
    settings, ``workers`` models at a time; return name → the loss of every step.

    Each model runs on one CPU thread of its own: torch releases Python's lock inside its
    kernels, so the models really train side by side, and every model ends up exactly as
    ``train(model, task, ..., threads=1)`` leaves it, whatever ``workers`` is. Models this small
    gain far more from this than from splitting each matrix product over threads. One progress
    bar per model.
    """
    if not isinstance(models, Mapping) or not models:
        raise TypeError(f"models must be a non-empty mapping of name → torch.nn.Module, got {models!r}")
    steps, batch, length, lr, seed = _check_training(models, task, steps, batch, length, lr, seed)
    workers = check_int("workers", workers, 1)
    losses: dict[str, list[float]] = {name: [] for name in models}
    bars = {name: _Progress(steps, str(name), progress) for name in models}
    shown = dict.fromkeys(models, 0)
    stop = threading.Event()

    def show_progress() -> None:  # the bars are only touched from this thread
        for name, bar in bars.items():
            done = len(losses[name])
            if done > shown[name]:
                bar.update(losses[name][done - 1], done - shown[name])
                shown[name] = done

    previous_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_run_steps, model, task, steps, batch, length, lr, seed, losses[name].append, stop)
                       for name, model in models.items()]
            try:
                pending = set(futures)
                while pending:
                    finished, pending = wait(pending, timeout=0.1, return_when=FIRST_EXCEPTION)
                    show_progress()
                    for future in finished:
                        future.result()  # a worker's error, raised here
            except BaseException:
                stop.set()  # the other workers end after their current step
                raise
    finally:
        for bar in bars.values():
            bar.close()
        torch.set_num_threads(previous_threads)
    return losses


@torch.no_grad()
def loss_by_position(
    model: nn.Module, task: Task, *, length: int, batches: int = 8, batch: int = 32, seed: int = 1
) -> torch.Tensor:
    """Mean next-token loss (nats) at each position: a (length,) float64 tensor, averaged over
    ``batches`` batches of ``batch`` sequences drawn with a generator seeded with ``seed``."""
    length = check_int("length", length, 1)
    batches = check_int("batches", batches, 1)
    batch = check_int("batch", batch, 1)
    seed = check_int("seed", seed, 0)
    device = _model_device(model)
    generator = torch.Generator().manual_seed(seed)
    was_training = model.training
    model.eval()
    total = torch.zeros(length, dtype=torch.float64)
    try:
        for _ in range(batches):
            inputs, targets = task.sample(batch, length, generator)
            logits = model(inputs.to(device))
            loss = F.cross_entropy(logits.transpose(1, 2), targets.to(device), reduction="none")
            total += loss.double().mean(0).cpu()
    finally:
        model.train(was_training)
    return total / batches


@dataclass(frozen=True)
class ShortContext:
    """The "train short, test long" experiment of lessons 08 and 09, in one place: every scheme is
    trained on the same task at ``length`` tokens with the same budget, then evaluated by position
    up to ``eval_length``. ``scheme_options`` gives the per-scheme settings that depend on the
    lengths: the learned table has a row for every evaluated position, and T5's ``max_distance``
    is the training length (T5 itself uses 128), so with its 32 one-directional buckets the last
    bucket starts at offset 59 (``helpers.t5_bucket``): offsets 59 … L − 1 train it, and every
    longer offset shares it, a setting that favours T5 past L. The models have ``n_layers``
    layers (one: the position scheme alone decides where the single attention layer looks) and
    TinyLM's other defaults."""

    length: int = 64
    eval_length: int = 256
    steps: int = 300
    batch: int = 32
    lr: float = 1e-2
    seed: int = 0
    eval_batches: int = 8
    n_layers: int = 1

    def task(self) -> Task:
        return LetterDigitCopy()

    def scheme_options(self, name: str) -> dict:
        return {"learned": {"max_len": self.eval_length}, "t5": {"max_distance": self.length}}.get(name, {})

    def model_options(self, name: str) -> dict:
        """Keyword arguments for ``TinyLM(vocab_size, name, ...)``: the depth and ``scheme_options``."""
        return {"n_layers": self.n_layers, **self.scheme_options(name)}

    def train_kwargs(self) -> dict:
        """Keyword arguments for :func:`train` (add ``seed`` to change it)."""
        return {"steps": self.steps, "batch": self.batch, "length": self.length, "lr": self.lr, "seed": self.seed}


SHORT_CONTEXT = ShortContext()

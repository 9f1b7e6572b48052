"""Training in a real Jupyter kernel sends a bounded number of progress messages, however slow
the steps. A kernel's output channel holds a few thousand queued messages; past that it drops
some, the cell's closing "idle" among them, and nbval or nbclient waiting for it fails the cell.
A bar redrawn on a timer sends more messages the slower the machine, so this test slows every
training step down and counts what the kernel sent."""

import helpers as H

from .kernel import execute, kernel

SLOW_TRAINING = """
import time, torch, helpers as H

class Slow(torch.nn.Module):
    def __init__(self, scheme):
        super().__init__()
        self.model = H.TinyLM(16, scheme, d_model=16, n_heads=2, n_layers=1)

    def forward(self, tokens):
        time.sleep(0.03)
        return self.model(tokens)

torch.manual_seed(0)
models = {name: Slow(name) for name in ("none", "rope", "alibi")}
H.train_many(models, H.LetterDigitCopy(), steps=200, batch=2, length=8, workers=3)
"""


def test_slow_training_sends_a_bounded_number_of_progress_messages():
    with kernel() as client:
        # read the output channel only once the cell has finished, as nbval does
        reply, outputs = execute(client, SLOW_TRAINING, timeout=120, quiet_s=10)
    assert reply["status"] == "ok", reply
    counts: dict[str, int] = {}
    for message in outputs:
        counts[message["msg_type"]] = counts.get(message["msg_type"], 0) + 1
    shown = [m["content"] for m in outputs if m["msg_type"] == "display_data"]
    # Three bars, each redrawn at most REFRESHES + 1 times; a redraw of tqdm's widget bar sends
    # 3 messages (count, postfix text, ...). A bar on tqdm's 0.1 s timer would send ~3 × 60 here.
    assert counts.get("display_data") == 3, counts
    # each bar also leaves a plain-text line, the same on every machine, for a saved notebook to show
    assert [c["data"].get("text/plain") for c in shown] == [H.training.progress_line(d, 200)
                                                            for d in ("none", "rope", "alibi")], shown
    assert all(c["metadata"].get(H.training.PROGRESS_MARK) for c in shown), shown
    assert counts.get("comm_msg", 0) <= 3 * (H.training._Progress.REFRESHES + 2) * 3, counts

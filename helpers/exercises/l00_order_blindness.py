"""Lesson 00's exercise (notebooks/00_order_blindness.ipynb).

00.causal_mask (predict): with a causal mask, is the output of a shuffled sentence (any order but the
    original) still the shuffled output, Attn(Px) = P·Attn(x)?
"""

from __future__ import annotations

from .core import predict

predict(
    "00.causal_mask",
    title="whether a causal mask keeps attention permutation-equivariant",
    question="With PyTorch's causal mask (slot i attends only to slots 0 … i), shuffle the tokens into any order "
             "other than the original: is the output of the shuffled sentence still the shuffled output, "
             "Attn(Px) = P·Attn(x)? \"yes\" (it holds for every shuffled order), \"no\" (it fails for every "
             "shuffled order) or \"some\" (it holds for some shuffled orders and fails for others)?",
    choices={
        "yes": "No: the mask belongs to the slots, not to the tokens. A token moved to another slot sees another "
               "prefix of the sentence, so its output changes: the next cell shows the check failing for "
               "every order but the original.",
        "no": "With the mask, slot i sees only the tokens in slots 0 … i, so moving a token changes what it "
              "sees: the next cell shows the check failing, by more than 0.1, in all 5 orders other than "
              "the original.",
        "some": "No: every order other than the original moves some token to a slot that sees a different "
                "prefix, so the check fails for all 5 of them, as the next cell shows.",
    },
    answer="no",
    hints=(
        "The mask says which *slots* a slot may look at. When the tokens are shuffled, does the mask move "
        "with them?",
        "Follow the word \"man\": in \"dog bites man\" it sits in slot 2 and sees all three words; in \"man "
        "bites dog\" it sits in slot 0. What does it see there?",
    ),
    solution='answer = "no"\nH.check("00.causal_mask", answer)\n',
)

"""Lesson 11's exercise (notebooks/11_the_map.ipynb).

11.offset_only (predict): of the three places where position enters attention (added to x,
    rotating q and k, a bias on the scores), through which do the course's schemes make every score
    depend on the positions only through the offset, whatever the query and key projections are?
"""

from __future__ import annotations

from .core import predict

predict(
    "11.offset_only",
    title="the places where scores see only offsets",
    question="Position can enter attention in three places: added to x, rotating q and k, a bias on the scores. "
             "For the course's schemes, through which of them does every score depend on the positions only "
             "through the offset, whatever W_q and W_k are? "
             "\"x\" (only added to x), \"qk\" (only rotating q and k), \"bias\" (only a bias on the scores), "
             "\"qk+bias\" (rotating q and k, and a bias) or \"all\" (all three)?",
    choices={
        "x": "No: a code added to x passes through W_q and W_k before the dot product, and lesson 05 showed that "
             "generic projections mix its pairs, so the scores change when the whole sentence is shifted. The "
             "table below finds both added-to-x schemes absolute.",
        "qk": "Half right: rotating q and k after the projections makes every score a function of the offset "
              "(lesson 06). But a bias that is a function of the offset, as the course's ALiBi, T5 and shaw "
              "biases are, adds nothing that depends on where the query and the key sit either: the table below "
              "finds those relative too.",
        "bias": "Half right: the course's ALiBi, T5 and shaw biases depend only on the offset. But so does a "
                "score whose q and k were rotated by their positions after the projections (lesson 06): the "
                "table below finds RoPE relative too.",
        "qk+bias": "For the course's schemes, both act after the projections, where W_q and W_k can no "
                   "longer mix the position signal with content. A rotation of q and k by their positions turns "
                   "each score into a function of the offset (lesson 06), and a bias that is a function of the "
                   "offset adds one. The place alone does not decide it: a bias looked up by the query's and the "
                   "key's absolute positions would be absolute. A code added to x goes through W_q and W_k "
                   "first, which break the offset structure (lesson 05).",
        "all": "Not all three: a code added to x passes through W_q and W_k before the dot product, and generic "
               "projections break its offset structure (lesson 05), so the scores change when the whole sentence "
               "is shifted. The table below finds both added-to-x schemes absolute.",
    },
    answer="qk+bias",
    hints=(
        "Lesson 05 asked when a code added to x keeps scores that depend only on the offset after the projections. "
        "Was the answer \"always\"?",
        "The two other places act after W_q and W_k. What is left there that could mix the positions with the "
        "content?",
    ),
    solution='''\
answer = "qk+bias"  # one of: "x", "qk", "bias", "qk+bias", "all"
H.check("11.offset_only", answer)
''',
)

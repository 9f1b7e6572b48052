"""Lesson 07's trained table over five seeds, per CPU kernel set: the summary
``benchmarks/l07_seed_spread.py --write`` stores (``ranges``: the lowest and highest value of each
number over the seeds, rounded outwards; ``claims``: each claim of ``helpers.table_claims`` with its
verdict seed by seed, T or F). Written by the benchmark, not by hand."""
# ruff: noqa: E501

SEED_SPREAD = {
    'best (AVX2)': {
        'seeds': [0, 1, 2, 3, 4],
        'torch': '2.13.0',
        'threads': 2,
        'ranges': {
            'excess 0–31': (-0.001, 0.02),
            'update sim k=1': (-0.183, -0.099),
            'update sim k=3': (0.174, 0.282),
            'most alike k': (3.0, 3.0),
            'least row move': (1.015, 1.151),
            'loss 32–47': (3.976, 4.407),
            'entropy 32–47': (0.971, 1.094),
            'entropy 8–31': (0.71, 0.733),
        },
        'claims': {
            'loss within 0.05 nats of the floor at positions 0–31': 'TTTTT',
            "the update's rows are most alike 3 apart": 'TTTTT',
            'neighbouring rows (1 apart) received dissimilar updates (similarity < −0.05)': 'TTTTT',
            'every row 0–31 moved by more than 0.5': 'TTTTT',
            'rows 32–47 are exactly their random start': 'TTTTT',
            'loss at positions 32–47 above ln 16 + 0.5 (worse than guessing)': 'TTTTT',
            'yet the predictions there are confident: entropy below ln 16 − 1': 'TTTTT',
        },
    },
    'portable (ATEN_CPU_CAPABILITY=default)': {
        'seeds': [0, 1, 2, 3, 4],
        'torch': '2.13.0',
        'threads': 2,
        'ranges': {
            'excess 0–31': (-0.001, 0.02),
            'update sim k=1': (-0.183, -0.099),
            'update sim k=3': (0.174, 0.282),
            'most alike k': (3.0, 3.0),
            'least row move': (1.015, 1.151),
            'loss 32–47': (3.976, 4.402),
            'entropy 32–47': (0.972, 1.095),
            'entropy 8–31': (0.71, 0.733),
        },
        'claims': {
            'loss within 0.05 nats of the floor at positions 0–31': 'TTTTT',
            "the update's rows are most alike 3 apart": 'TTTTT',
            'neighbouring rows (1 apart) received dissimilar updates (similarity < −0.05)': 'TTTTT',
            'every row 0–31 moved by more than 0.5': 'TTTTT',
            'rows 32–47 are exactly their random start': 'TTTTT',
            'loss at positions 32–47 above ln 16 + 0.5 (worse than guessing)': 'TTTTT',
            'yet the predictions there are confident: entropy below ln 16 − 1': 'TTTTT',
        },
    },
}

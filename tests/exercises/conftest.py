"""The exercises' tests: register the marker of the end-to-end notebook runs."""


def pytest_configure(config):
    config.addinivalue_line("markers", "end_to_end: executes lesson notebooks with every exercise solved (slow)")

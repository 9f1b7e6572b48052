"""pytest configuration shared by the unit tests and the nbval notebook run."""

# Outputs that can never be byte-stable between runs: images (font hinting, library
# versions), HTML/JS reprs that embed random ids, and widget views (random model ids).
UNSTABLE_OUTPUTS = (
    "image/png",
    "image/jpeg",
    "image/svg+xml",
    "text/html",
    "application/javascript",
    "application/vnd.jupyter.widget-view+json",
    "application/vnd.jupyter.widget-state+json",
)


def pytest_collectstart(collector):
    if getattr(collector, "path", None) is not None and collector.path.suffix == ".ipynb":
        collector.skip_compare = tuple(collector.skip_compare) + UNSTABLE_OUTPUTS


# After a cell's reply, nbval waits at most 5 s for each further message from the kernel (its
# outputs, then "idle"). On a loaded two-core machine a kernel can be that slow to send them;
# give it a minute. nbval sets the wait on each notebook cell item as ``output_timeout``.
NBVAL_OUTPUT_TIMEOUT = 60


def pytest_collection_modifyitems(items):
    for item in items:
        if hasattr(item, "output_timeout"):
            item.output_timeout = NBVAL_OUTPUT_TIMEOUT

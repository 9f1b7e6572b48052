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

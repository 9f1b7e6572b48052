"""The measurements the lessons make: ``common`` holds those several lessons share, and
``lNN_<lesson>`` those of one lesson (named after its notebook, ``notebooks/NN_<lesson>.ipynb``).

Every module here computes numbers only (no widgets, no figures) and returns tensors, numbers,
dataclasses or named tuples. A lesson's module imports ``common`` and the core modules
(``helpers.encodings``, ``helpers.rotary`` …), never another lesson's module; what two lessons
both need moves to ``common`` (or to a core module, if it is the math of a scheme).

Public functions check their arguments once, at entry, with ``helpers._checks``; they then call
unchecked cores (a leading underscore: ``_frequencies``, ``_fit_linear_map`` …), never another
public function, so a slider step validates each value once.

How to add a measurement module
-------------------------------
1. Create ``helpers/measure/lNN_<lesson>.py`` with a docstring naming the lesson, and write its
   functions: formula and shapes in the docstring, arguments checked at entry, several numbers
   returned as a dataclass or named tuple (``counting_snapshot`` → ``CountingSnapshot``).
2. Add one ``from .measure.lNN_<lesson> import …`` line to ``helpers/__init__.py`` for the names
   the lesson calls as ``H.…`` (``__all__`` picks them up by itself).
3. Test it in ``tests/measure/test_lNN_<lesson>.py`` against values worked by hand or an
   independent implementation. ``tests/test_package.py`` checks the module imports no figure or
   widget library and no other lesson's module, and that a notebook of that name exists.
"""

"""The checker's machinery on synthetic exercises: results, the not-attempted rule, messages,
hints, the registry's refusals, and the property-by-property comparison."""

import numpy as np
import pytest
import torch

import helpers as H
from helpers.exercises import compare, core
from helpers.exercises.core import Case, CheckResult

SOLUTION = 'def my_double(x):\n    return 2 * x\n\nH.check("99.double", my_double)\n'


def _twice(x):
    return 2 * x


@pytest.fixture
def synthetic():
    """Three throw-away exercises (lesson 99), removed from the registry afterwards."""
    before = dict(core._registry)
    core.implement(
        "99.double", title="double a tensor", reference=_twice,
        cases=[Case("x = 0, 1, 2", (torch.arange(3.0),)), Case("x = 5, −5", (torch.tensor([5.0, -5.0]),))],
        mistakes={"tripled": (lambda x: 3 * x, "multiply by 2, not 3."),
                  "squared": (lambda x: x * x, "multiply, do not square."),
                  "kept": ((lambda x: x, lambda x: x.clone()), "multiply by 2.")},
        hints=("Multiply.", "By two.", "return 2 * x"), solution=SOLUTION)
    core.predict("99.pick", title="pick one", question="Which?", choices={"Left": "Yes, left.", "right": "No."},
                 answer="Left", hints=("Not right.", "Left."), solution='answer = "left"\nH.check("99.pick", answer)\n')
    core.explore("99.count", title="count", question="How many?", context=("run",),
                 verify=lambda answer, run: (answer == len(run), f"{len(run)} items in your run."),
                 hints=("Count them.", "len(run)."), solution='H.check("99.count", 3, run=[1, 2, 3])\n')
    core.reset_hints()
    yield
    core._registry.clear()
    core._registry.update(before)
    core.reset_hints()


def test_a_result_shows_its_message_and_only_that(synthetic, capsys):
    result = H.check("99.double", _twice)
    assert isinstance(result, CheckResult) and result.passed and result.status == "passed"
    assert repr(result) == str(result) == result.message
    result._ipython_display_()
    assert capsys.readouterr().out == result.shown + "\n"
    assert result.shown.startswith("✅ ") and result.shown.split() == ["✅", *result.message.split()]
    assert result.message == "99.double · passed: your function matches the course's reference on all 2 cases " \
                             "(the lesson's sizes and the edge cases)."


@pytest.mark.parametrize("answer", [None, Ellipsis])
def test_none_and_ellipsis_are_not_attempted(synthetic, answer):
    for exercise_id in ("99.double", "99.pick", "99.count"):
        result = H.check(exercise_id, answer)
        assert result.status == "not attempted" and not result.passed and result.mistake is None
    assert H.check("99.double", answer).message == (
        "99.double · not attempted yet: double a tensor.\nTo start: replace raise NotImplementedError by your "
        "code, then run the cell.\n"
        'Stuck? H.hint("99.double") gives a hint (again for the next), H.solution("99.double") the solution.')


def test_a_stub_is_not_attempted_but_a_later_notimplementederror_is_a_failure(synthetic):
    def stub(x):
        raise NotImplementedError  # your code here

    def half_done(x):
        if len(x) == 2:
            raise NotImplementedError
        return 2 * x

    assert H.check("99.double", stub).status == "not attempted"
    result = H.check("99.double", half_done)
    assert result.status == "failed"
    assert 'on case "x = 5, −5" your function raised NotImplementedError' in result.message


def test_an_exception_in_the_answer_is_reported_not_raised(synthetic):
    def broken(x):
        return x @ torch.ones(5)

    result = H.check("99.double", broken)
    assert result.status == "failed" and result.mistake is None
    assert result.message.startswith('99.double · failed: on case "x = 0, 1, 2", broken(<float32 tensor of shape '
                                     '(3,)>) raised RuntimeError: ')
    assert "Traceback" not in result.message and "0x" not in result.message


def test_a_catalogued_mistake_is_named_with_its_fix_and_the_first_difference(synthetic):
    result = H.check("99.double", lambda x: 3 * x)
    assert result.mistake == "tripled"
    assert result.message == (
        "99.double · failed: this is a known mistake: tripled.\nHow to fix it: multiply by 2, not 3.\n"
        'First difference on case "x = 0, 1, 2": values differ at [1]: expected 2, got 3 (off by 1); 2 of 3 '
        'entries differ.\nMore help: H.hint("99.double") for a hint, H.solution("99.double") for the solution.')
    assert H.check("99.double", lambda x: x + 0).mistake == "kept"  # any coding of a mistake matches


def test_an_answer_equal_to_a_mistake_on_some_cases_only_is_not_named(synthetic):
    result = H.check("99.double", lambda x: 3 * x if len(x) == 3 else 2 * x)
    assert result.status == "failed" and result.mistake is None


def test_wrong_kinds_of_answer_get_their_own_message(synthetic):
    assert "got a str" in H.check("99.double", "2 * x").message
    assert "your function returned a list of 3 items" in H.check("99.double", lambda x: x.tolist()).message
    assert "shape: expected (3,), got (1, 3)" in H.check("99.double", lambda x: 2 * x[None]).message
    assert "dtype: expected a floating-point tensor, got torch.int64 (convert with .float())" in H.check(
        "99.double", lambda x: (2 * x).long()).message
    assert H.check("99.double", lambda x: (2 * x).numpy()).passed
    assert H.check("99.double", lambda x: (2 * x).double()).passed
    assert "takes no keyword arguments, got run" in H.check("99.double", _twice, run=1).message


def test_an_answer_that_changes_its_input_in_place_fails_naming_it_and_spoils_no_later_check(synthetic):
    def in_place(x):
        return x.mul_(2)

    first, second = H.check("99.double", in_place), H.check("99.double", in_place)
    assert first.status == "failed" and first.message == second.message  # the cases themselves stay as they were
    assert 'on case "x = 0, 1, 2", your function changed its input `x` in place (entry [1] was 1 and is now 2)' in \
        first.message and "work on a copy (x.clone())" in first.message
    assert H.check("99.double", _twice).passed
    cases, _, _ = core.get("99.double").prepared()
    assert cases[0].args[0].tolist() == [0.0, 1.0, 2.0]


def test_an_input_changed_in_place_is_named_by_position_when_the_function_has_no_names(synthetic):
    def starred(*args):
        args[0][0] = 7.0
        return 2 * args[0]

    assert "changed its input `args[0]` in place" in H.check("99.double", starred).message
    # a built-in method has no signature inspect can read: its input is named by its place
    assert "changed its input (its first argument) in place" in H.check("99.double", torch.Tensor.zero_).message


def test_changes_seen_through_a_view_and_through_its_base():
    from helpers.exercises.inputs import changed_input, snapshot

    weight = torch.arange(6.0).reshape(3, 2).clone()  # a tensor of its own, not a view
    column = weight[:, 0]  # a view: its base is weight

    def writes_other_column(w):
        w._base[:, 1] = 0.0  # writes into the base, outside the view itself
        return w

    saved = snapshot((column,))
    writes_other_column(column)
    assert "the tensor it is a view of changed: entry [0, 1] was 1 and is now 0" in changed_input(
        writes_other_column, saved)

    nan = torch.tensor([float("nan"), 1.0])
    saved = snapshot((nan,))
    assert changed_input(lambda t: t, saved) is None  # nan stays nan: nothing changed


def test_a_design_proposal_that_changes_its_input_fails_naming_it():
    from helpers.exercises.kinds import Design

    def keeps(positions):
        return (positions.double() * 0.01).sin()

    def in_place(positions):
        return positions.mul_(0).double()

    design = Design("99.design", "a design", ("a", "b"), 'H.check("99.design", x)', question="?",
                    properties=(("defined", lambda fn: (fn(torch.arange(3)).shape == (3,), "it is.")),))
    assert design.check(keeps, {}).passed
    failed = design.check(in_place, {})
    assert failed.status == "failed" and "your function changed its input `positions` in place (entry [1] was 1 " \
        "and is now 0)" in failed.message


def test_an_answer_that_leaves_pytorch_fails_where_autograd_is_asked(synthetic):
    core.implement(
        "99.graph", title="double a tensor, in PyTorch", reference=_twice, autograd=True,
        cases=[Case("x = 0, 1, 2", (torch.arange(3.0),)), Case("x = 1, 2 as integers", (torch.tensor([1, 2]),))],
        mistakes={"tripled": (lambda x: 3 * x, "by 2."), "squared": (lambda x: x * x, "by 2."),
                  "kept": (lambda x: x.clone(), "by 2.")},
        hints=("Multiply.", "By two."), solution=SOLUTION.replace("99.double", "99.graph"))
    assert H.check("99.graph", _twice).passed
    assert H.check("99.double", lambda x: torch.from_numpy(2 * x.numpy())).passed  # no autograd asked there
    detached = H.check("99.graph", lambda x: 2 * x.detach())
    assert detached.status == "failed" and "your function's result does not carry gradients: called with `x` " \
        "requiring gradients (requires_grad=True, as in training), it returned a tensor with no grad_fn" in \
        detached.message and "on a GPU" in detached.message
    numpy = H.check("99.graph", lambda x: 2 * x.numpy())
    assert numpy.status == "failed" and "your function raised RuntimeError: Can't call numpy() on Tensor that " \
        "requires grad" in numpy.message
    listed = H.check("99.graph", lambda x: torch.tensor([2 * v for v in x.tolist()], dtype=x.dtype))
    assert listed.status == "failed" and "does not carry gradients" in listed.message


def test_a_part_check_runs_once_every_case_matches(synthetic):
    calls = []

    def part(answer):
        calls.append(answer)
        return "helper_part returned the wrong thing." if answer is _twice else None

    core.implement(
        "99.part", title="double, with a part", reference=_twice, part_check=part,
        cases=[Case("x = 0, 1, 2", (torch.arange(3.0),))],
        mistakes={"tripled": (lambda x: 3 * x, "by 2."), "squared": (lambda x: x * x, "by 2."),
                  "kept": (lambda x: x.clone(), "by 2.")},
        hints=("Multiply.", "By two."), solution=SOLUTION.replace("99.double", "99.part"))
    assert H.check("99.part", lambda x: 3 * x).status == "failed" and not calls  # a wrong output: no part check
    assert H.check("99.part", _twice).message == "99.part · failed: helper_part returned the wrong thing.\n" \
        'More help: H.hint("99.part") for a hint, H.solution("99.part") for the solution.'


def test_companion_finds_the_part_the_answer_calls():
    from helpers.exercises.exercise import companion

    namespace = {}
    exec("def helper_part(x):\n    return x\n\ndef my_answer(x):\n    return helper_part(x)\n\n"
         "def my_other(x):\n    return x\n", namespace)
    assert companion(namespace["my_answer"], "helper_part") is namespace["helper_part"]
    assert companion(namespace["my_other"], "helper_part") is None  # defined, but not called by this answer
    assert companion(len, "helper_part") is None and companion(42, "helper_part") is None


def test_predict_matches_keys_case_insensitively_and_lists_choices(synthetic):
    assert H.check("99.pick", " LEFT ").passed and H.check("99.pick", "left").message == \
        '99.pick · passed: "Left" is right. Yes, left.'
    wrong = H.check("99.pick", "Right")
    assert wrong.status == "failed" and wrong.message.startswith('99.pick · failed: "right" is not it. No.')
    unknown = H.check("99.pick", "middle")
    assert unknown.status == "failed" and "'middle' is not one of the choices: \"Left\", \"right\"." in unknown.message
    assert "is not one of the choices" in H.check("99.pick", ["left"]).message


def test_explore_passes_the_learner_s_run_and_asks_for_it_when_missing(synthetic):
    assert H.check("99.count", 3, run=[1, 2, 3]).passed
    assert H.check("99.count", 2, run=[1, 2, 3]).message.startswith("99.count · failed: 3 items in your run.")
    missing = H.check("99.count", 3)
    assert missing.status == "failed" and 'H.check("99.count", answer, run=run)' in missing.message
    crashed = H.check("99.count", 3, run=5)  # len(5) raises inside verify
    assert crashed.status == "failed" and "the check could not run on this answer (TypeError" in crashed.message


def test_hints_come_one_at_a_time_and_only_when_asked(synthetic, capsys):
    H.hint("99.double")
    H.hint("99.double")
    H.hint("99.double")
    H.hint("99.double")
    assert capsys.readouterr().out.splitlines() == [
        "99.double · hint 1 of 3: Multiply.", "99.double · hint 2 of 3: By two.",
        "99.double · hint 3 of 3: return 2 * x",
        '99.double: that was the last hint (3 of 3). H.solution("99.double") prints the solution.']
    H.check("99.pick", None)  # the stub's "not attempted" shows no hint and uses none up
    assert capsys.readouterr().out == ""
    H.hint("99.pick")
    assert capsys.readouterr().out == "99.pick · hint 1 of 2: Not right.\n"


def test_the_solution_is_printed_on_request(synthetic, capsys):
    assert H.solution("99.double") is None
    assert capsys.readouterr().out == SOLUTION


def test_an_unknown_id_is_a_clear_error(synthetic):
    for call in (lambda: H.check("99.tripple", _twice), lambda: H.hint("4.sinusoidal"), lambda: H.solution(4)):
        with pytest.raises(ValueError, match=r"unknown exercise_id .*; the exercises are: .*99\.double, 99\.pick"):
            call()


def test_the_registry_refuses_malformed_exercises(synthetic):
    good = dict(title="t", question="q", choices={"a": "", "b": ""}, answer="a", hints=("h1", "h2"),
                solution='H.check("98.ok", answer)')
    with pytest.raises(ValueError, match="must look like"):
        core.predict("9.bad", **{**good, "solution": 'H.check("9.bad", answer)'})
    with pytest.raises(ValueError, match="hints must be 2 or 3"):
        core.predict("98.ok", **{**good, "hints": ("one",)})
    with pytest.raises(ValueError, match="solution must end with its check line"):
        core.predict("98.ok", **{**good, "solution": "answer = 'a'"})
    with pytest.raises(ValueError, match="must be one of at least two choices"):
        core.predict("98.ok", **{**good, "answer": "c"})
    with pytest.raises(ValueError, match="at least three mistakes"):
        core.implement("98.ok", title="t", reference=_twice, cases=[], mistakes={}, hints=("a", "b"),
                       solution='H.check("98.ok", f)')
    core._registry["98.ok"] = core.Predict("98.ok", "t", ("a", "b"), "", module="helpers.exercises.l98_other")
    with pytest.raises(ValueError, match="defined twice"):
        core.predict("98.ok", **good)


def test_ids_come_in_course_order(synthetic):
    ids = core.exercise_ids()
    assert ids[-3:] == ("99.double", "99.pick", "99.count")
    assert list(ids) == sorted(ids, key=lambda i: int(i[:2]))
    assert H.EXERCISES == tuple(i for i in ids if not i.startswith("99."))


# --- compare ----------------------------------------------------------------------------------------


def test_first_failure_checks_type_shape_dtype_finiteness_values_in_that_order():
    expected = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
    assert compare.first_failure(expected, expected.clone()) is None
    assert compare.first_failure(expected, np.array([[0.0, 1.0], [2.0, 3.0]])) is None
    assert compare.first_failure(expected, None).startswith("your function returned None")
    assert compare.first_failure(expected, torch.zeros(2, 3, dtype=torch.int64)) == "shape: expected (2, 2), got (2, 3)"
    assert compare.first_failure(expected, torch.zeros(2, 2, dtype=torch.bool)).startswith(
        "dtype: expected a floating-point tensor, got torch.bool")
    assert compare.first_failure(expected, torch.tensor([[0.0, 1.0], [float("nan"), 9.0]])) == \
        "values: got nan at [1, 0] where 2 was expected (1 non-finite entries)"
    assert compare.first_failure(expected, torch.tensor([[0.0, 1.0], [2.0, 3.5]])) == \
        "values differ at [1, 1]: expected 3, got 3.5 (off by 0.5); 1 of 4 entries differ"


def test_tolerances_and_integers():
    expected = torch.tensor([1000.0, 1e-6])
    assert compare.close(expected, expected * (1 + 5e-6))  # within rtol = 1e-5
    assert not compare.close(expected, expected * (1 + 5e-5))  # beyond it: float16's steps are 5e-4
    assert not compare.close(expected, expected + torch.tensor([0.0, 1e-3]))  # beyond atol
    assert compare.first_failure(torch.tensor([1, 2]), torch.tensor([1, 3], dtype=torch.int32)) == \
        "values differ at [1]: expected 2, got 3; 1 of 2 entries differ"
    assert compare.first_failure(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])).endswith("(convert with .long())")
    assert not compare.close(None, torch.zeros(1))


def test_nan_matches_only_nan_and_only_where_expected_holds_one():
    nan, inf = float("nan"), float("inf")
    mistake_output = torch.tensor([0.5, nan, inf])
    assert compare.close(mistake_output, torch.tensor([0.5, nan, inf], dtype=torch.float64))
    assert not compare.close(mistake_output, torch.tensor([0.5, 0.0, inf]))
    assert not compare.close(mistake_output, torch.tensor([nan, nan, inf]))
    assert not compare.close(torch.tensor([0.5, 1.0]), torch.tensor([0.5, nan]))


def test_numbers_print_plainly():
    assert [compare.format_number(x) for x in (3, 2.0, -0.0, 0.1234567, 1e-7, float("inf"))] == \
        ["3", "2", "0", "0.123457", "1e-07", "inf"]


def test_half_precision_is_refused_by_dtype_and_device_and_exact_dtype_are_enforced():
    expected = torch.tensor([0.1, 0.2, 0.3])
    assert compare.first_failure(expected, expected.half()) == "dtype: got float16, half precision; expected float32 " \
                                                               "or float64"
    assert compare.first_failure(expected, expected.bfloat16()).startswith("dtype: got bfloat16, half precision")
    assert compare.first_failure(expected, expected.double()) is None
    assert compare.first_failure(expected, expected.double(), dtype=torch.float32) == \
        "dtype: the task asks for float32 (the input's dtype), got float64"
    assert compare.first_failure(expected, torch.zeros(3, device="meta"), device="cpu") == \
        "device: expected the inputs' device, cpu, got meta"


def test_float32_rounding_passes_the_policy_and_float16_rounding_fails_it():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(1000, dtype=torch.float64, generator=g)
    assert compare.close(x, x.float())
    assert not compare.close(x, x.half().double())
    assert not compare.close(x, x.bfloat16().double())
    # the float32-angle slack: sin of angles up to 4095 computed in float32 passes with it, and only with it
    angles = torch.linspace(0, 4095, 5000, dtype=torch.float64)
    in_float32 = torch.sin(angles.float()).double()
    assert not compare.close(torch.sin(angles), in_float32)
    assert compare.close(torch.sin(angles), in_float32, atol=compare.DEFAULT_ATOL + compare.float32_angle_slack(4095))
    assert not compare.close(torch.sin(angles), torch.sin(angles.half()).double(),
                             atol=compare.DEFAULT_ATOL + compare.float32_angle_slack(4095))


def test_the_relation_a_wrong_output_has_is_told_from_the_numbers():
    e = torch.tensor([[1.0, 2.0, 4.0], [3.0, -1.0, 0.5], [0.25, 8.0, -2.0]])
    told = {name: compare.what_property(e, got, axes=("rows", "columns")) for name, got in {
        "sign": -e, "scale": 2.5 * e, "reversed": e.flip(1), "ahead": torch.cat((e[1:], e[:1])),
        "transposed": e.T, "reordered": e[:, [1, 2, 0]].flip(1), "plus": e + 3, "noise": e + torch.eye(3)}.items()}
    assert told["sign"].startswith("your output is the expected one with its sign flipped")
    assert told["scale"].startswith("your output is 2.5 × the expected one")
    assert told["reversed"].startswith("your output is the expected one reversed along the columns")
    assert told["ahead"].startswith("your output is the expected one a step ahead along the rows")
    assert told["transposed"].startswith("your output is the expected one transposed")
    assert told["reordered"].startswith("your output holds the expected values, in another order along the columns")
    assert told["plus"].startswith("your output is the expected one plus 3 on every entry")
    assert told["noise"] is None and compare.what_property(e, e) is None


def test_a_failure_names_the_index_in_the_exercises_terms_and_the_relation(synthetic):
    before = dict(core._registry)
    try:
        core.implement("99.words", title="double", reference=_twice, where=lambda args, index: f"word {index[0]}",
                       axes=("words",), half_why="It needs digits.",
                       cases=[Case("x = 1, 2, 3", (torch.tensor([1.0, 2.0, 3.0]),))],
                       mistakes={"tripled": (lambda x: 3 * x, "by 2."), "squared": (lambda x: x * x, "no."),
                                 "kept": (lambda x: x, "by 2.")},
                       hints=("a", "b"), solution='H.check("99.words", f)\n')
        result = H.check("99.words", lambda x: (2 * x).flip(0))
        assert 'on case "x = 1, 2, 3": at word 0: expected 2, got 6 (off by 4); 2 of 3 entries differ.' in \
            result.message and "What the numbers say: your output is the expected one reversed along the words" in \
            result.message and result.mistake is None
        half = H.check("99.words", lambda x: (2 * x + 1e-3).half())
        assert half.mistake == core.HALF and "It needs digits." in half.message
    finally:
        core._registry.clear()
        core._registry.update(before)


def test_a_design_exercise_names_the_first_property_that_fails(synthetic):
    before = dict(core._registry)
    try:
        core.design("99.bounded", title="a bounded code", question="Propose one.",
                    properties=(("bounded", lambda f: (abs(f(10 ** 6)) <= 1, f"f(10⁶) = {f(10 ** 6)}.")),
                                ("increasing", lambda f: (f(2) > f(1), f"f(1) = {f(1)}, f(2) = {f(2)}."))),
                    hints=("a", "b"), solution='H.check("99.bounded", f)\n')
        assert H.check("99.bounded", lambda p: p).message.startswith(
            "99.bounded · failed: your proposal is not bounded. It fails here: f(10⁶) = 1000000.")
        assert "your proposal is not increasing. It is bounded, but it fails here: f(1) = 0, f(2) = 0." in \
            H.check("99.bounded", lambda p: 0).message
        assert H.check("99.bounded", lambda p: p / (p + 1)).passed

        def stub(p):
            raise NotImplementedError

        assert H.check("99.bounded", stub).status == "not attempted"
        assert "raised ZeroDivisionError" in H.check("99.bounded", lambda p: 1 / 0).message
    finally:
        core._registry.clear()
        core._registry.update(before)


def test_a_wrong_output_found_by_the_designs_own_test_is_a_verdict_not_an_error_in_the_learners_code(synthetic):
    def one_number(f):
        out = f(3)
        if not isinstance(out, (int, float)):
            raise core.WrongOutput(f"f(p) should return one number, got {type(out).__name__}")
        return abs(out) <= 1, f"f(3) = {out}."

    before = dict(core._registry)
    try:
        core.design("99.number", title="t", question="q", properties=(("bounded", one_number),),
                    hints=("a", "b"), solution='H.check("99.number", f)\n')
        message = H.check("99.number", lambda p: [p]).message
        assert message.startswith("99.number · failed: your proposal returned the wrong output: f(p) should return "
                                  "one number, got list.")
        assert "raised" not in message and "cell of its own" not in message
    finally:
        core._registry.clear()
        core._registry.update(before)


def test_choices_match_with_any_spacing_around_symbols(synthetic):
    before = dict(core._registry)
    try:
        core.predict("99.sum", title="t", question="q", choices={"qk+bias": "yes", "qk": "no"}, answer="qk+bias",
                     hints=("a", "b"), solution='H.check("99.sum", "qk+bias")\n')
        assert H.check("99.sum", " QK + bias ").passed and H.check("99.sum", "qk  +  bias").passed
    finally:
        core._registry.clear()
        core._registry.update(before)


@pytest.mark.parametrize("status, mark", [("passed", "✅"), ("failed", "❌"), ("not attempted", "✏️")])
def test_a_verdict_shows_its_mark_first_and_wraps_between_words(status, mark):
    words = [f"word{i}" for i in range(40)] + ["H.hint(\"99.a_very_long_identifier_that_cannot_be_broken\")"]
    message = "99.x · " + status + ": " + " ".join(words) + "\nsecond line"
    shown = CheckResult("99.x", status, message).shown
    lines = shown.splitlines()
    assert lines[0].startswith(f"{mark} 99.x · {status}")
    assert all(len(line) <= core.COLUMN for line in lines if " " in line.strip())  # only an unbreakable word overflows
    assert shown.split() == f"{mark} {message}".split()  # nothing lost, no word cut
    assert lines[-1] == "second line"  # the message's own line breaks are kept

"""The Debian program sources (training/data/debian.py): CPython's test methods rewritten into
functions, the documentation's examples into scripts, the check that runs each one, the held-out
split by file, the recipe's share, and the counts on the real packages."""

from __future__ import annotations

import collections
import dataclasses
import os
import random
from pathlib import Path

import pytest

from training.data import debian, debian_docs, debian_tests
from training.data.debian_check import check
from training.data.debian_common import LICENSES, Candidate, assemble, held_out, split_id, statement_refusal, to_program
from training.data.programs import is_held_out
from training.data.recipe import Recipe
from training.data.sources import draw_program

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "debian"


def _function(c: Candidate) -> str:
    return assemble("", c.statements, c.entry)[0]


@pytest.fixture(scope="module")
def test_candidates() -> dict[str, Candidate]:
    found, _ = debian_tests.candidates(FIXTURES / "tests")
    return {c.name: c for c in found}


# ----------------------------------------------------------------------------------------------
# The test suite


def test_asserts_become_the_values_they_check(test_candidates: dict[str, Candidate]) -> None:
    c = test_candidates["Numbers.test_asserts"]
    assert (c.source, c.file, c.entry, c.values) == ("tests", "test_sample.py", "test_asserts", 7)
    assert _function(c) == (
        "def test_asserts():\n"
        "    result = abs(-4)\n"
        "    result = double(5)\n"  # the expected value first: the computed side is kept
        "    result = math.isclose(0.1 + 0.2, 0.3)\n"
        "    result = 3 in [1, 2, 3]\n"
        "    try:\n        abs('x')\n    except TypeError:\n        pass\n"
        "    try:\n        1 / 0\n    except ZeroDivisionError:\n        pass\n"
        "    result = Fraction(1, 3) * LIMIT\n")
    # what the function takes from its module comes along; unittest and test.support never do
    assert c.prefix.startswith("from fractions import Fraction\nimport math\n")
    assert "LIMIT = 3" in c.prefix and "def double(x):" in c.prefix
    assert "unittest" not in c.prefix and "support" not in c.prefix and "import os" not in c.prefix


def test_what_cannot_run_alone_is_left_out_or_ends_the_function(test_candidates: dict[str, Candidate]) -> None:
    # an assert on a refused module or on test.support is left out; a trivial one (a name) too
    assert _function(test_candidates["Numbers.test_drops_what_cannot_run"]).split("\n")[1:3] == \
        ["    result = max([4, 9])", "    result = min('bca')"]
    assert len(test_candidates["Numbers.test_drops_what_cannot_run"].statements) == 2
    # a call of the test case's own helper may change what follows: the function ends before it
    assert test_candidates["Numbers.test_stops_at_self"].statements == ["items = [3, 1, 2]", "result = sorted(items)"]
    # nothing computed, or marked as heavy: no candidate
    assert "Numbers.test_only_trivial" not in test_candidates and "Numbers.test_heavy" not in test_candidates


def test_subtests_and_class_attributes(test_candidates: dict[str, Candidate]) -> None:
    assert test_candidates["Numbers.test_subtests"].statements == ["for n in range(3):\n    result = n * n"]
    # the mixin's type from its subclasses (list before tuple) and its setUp as the opening locals
    assert test_candidates["SequenceMixin.test_sorted_copy"].statements == \
        ["data = list([3, 1, 2])", "result = sorted(data)", "result = len(list())"]


# ----------------------------------------------------------------------------------------------
# The documentation


def test_examples_become_scripts() -> None:
    found, skips = debian_docs.candidates(FIXTURES / "docs")
    page = next(c for c in found if c.file == "library/fractions.rst.txt")
    assert page.entry == "" and page.values == 5
    # the page's own module and an allowed module it takes as imported come first
    assert page.prefix == "from fractions import Fraction\nimport math\n"
    assert page.statements == [
        "counts = [3, 1, 2]", "counts.append(5)", "_ = sorted(counts)", "print(len(counts))",
        "_ = Fraction(1, 3) + Fraction(1, 6)", "_ = math.floor(2.5)  # a module the page takes as imported",
        "try:\n    int('x')\nexcept ValueError:\n    pass",
        "total = sum(counts)", "_ = total"]
    assert skips["example:import"] == 1 and skips["example:skip_marked"] == 1
    session = next(c for c in found if c.file == "tutorial/session.rst.txt")
    assert session.statements == ["width = 20", "height = 5 * 9", "area = width * height", "_ = area"]
    assert skips["example:undefined_name"] == 1


def test_a_script_brings_the_examples_that_define_its_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(debian_docs, "CHUNK_UNITS", 2)
    found, _ = debian_docs.candidates(FIXTURES / "docs", only={"tutorial/session.rst.txt"})
    # the second block is a script of its own, and it starts with what the first defined
    assert [c.statements for c in found] == [["width = 20", "height = 5 * 9"],
                                             ["width = 20", "height = 5 * 9", "area = width * height", "_ = area"]]
    assert [c.name for c in found] == ["4-5", "9-12"]  # named by the lines of its own examples


def test_what_a_statement_may_not_do() -> None:
    assert statement_refusal("import struct\nx = struct.pack('>h', 1)") is None  # beyond the corpus's modules
    assert statement_refusal("import os") == "import" and statement_refusal("from . import x") == "local_import"
    assert statement_refusal("data = open('f').read()") == "io_or_eval"
    assert statement_refusal("key = id(x)") == "unstable" and statement_refusal("n = hash('a')") == "unstable"
    # what would change the programs traced after it in the same interpreter
    assert statement_refusal("getcontext().prec = 6") == "global_state"
    assert statement_refusal("decimal.setcontext(decimal.BasicContext)") == "global_state"
    assert statement_refusal("with localcontext() as ctx:\n    ctx.prec = 6") is None


# ----------------------------------------------------------------------------------------------
# The check


def test_the_check_keeps_what_runs_and_drops_what_fails() -> None:
    cands = [
        Candidate("tests", "a.py", "fails", ["words = ['b', 'a']", "result = sorted(words)", "result = words.index('z')",
                                              "result = ''.join(words)", "result = words[::-1]"], entry="test_fails"),
        Candidate("tests", "a.py", "budget", ["total = 0", "for i in range(10 ** 6):\n    total += i", "result = str(total)",
                                               "result = total + 1", "result = [total] * 2"], entry="test_budget"),
        Candidate("tests", "a.py", "short", ["result = abs(-1)"], entry="test_short"),
        Candidate("docs", "p.rst.txt", "script", ["xs = [1, 2]", "_ = xs[5]", "_ = len(xs)", "xs.append(3)", "_ = xs"]),
        Candidate("docs", "p.rst.txt", "broken_prefix", ["_ = 1", "_ = 2", "_ = 3"], prefix="import math\nmath.nope()\n"),
        # an exception group leaves the module with a return event that has no line
        Candidate("docs", "p.rst.txt", "group", ["xs = [1, 2]", "try:\n    raise ExceptionGroup('g', [OSError(1), SystemError(2)])\n"
                                                  "except* OSError:\n    pass", "_ = len(xs)", "xs.append(3)", "_ = xs"]),
    ]
    results = check(cands)
    assert [r["status"] for r in results] == ["normal", "normal", "too_short", "normal", "exception", "normal"]
    assert results[5]["keep"] == [0, 2, 3, 4]
    assert results[0]["keep"] == [0, 1, 3, 4]  # the statement that raised, and only it
    assert results[1]["keep"] == [0, 2, 3, 4]  # the loop past the event budget
    assert results[3]["keep"] == [0, 2, 3, 4] and results[3]["events"] >= 5
    assert results[4]["keep"] == [0, 1, 2]  # a failing prefix is no statement's fault: nothing to leave out
    assert results[0]["rounds"] == 2


# ----------------------------------------------------------------------------------------------
# Programs, the split and the recipe


def _fixture_extraction(tmp_path: Path) -> Path:
    """A snapshot of the fixtures' programs, as ``debian.py --write`` makes one."""
    cands = debian_tests.candidates(FIXTURES / "tests")[0] + debian_docs.candidates(FIXTURES / "docs")[0]
    programs = []
    for c, r in zip(cands, check(cands)):
        if r["status"] == "normal":
            programs.append(to_program(dataclasses.replace(c, statements=[c.statements[i] for i in r["keep"]])))
    path = tmp_path / "debian.json.gz"
    debian.save(debian.Extraction(programs, {"programs": len(programs)}), path)
    return path


@pytest.fixture()
def snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> debian.Extraction:
    monkeypatch.setenv("NDB_DEBIAN_PROGRAMS", str(_fixture_extraction(tmp_path)))
    monkeypatch.setattr(debian, "_LOADED", {})
    return debian.load()


def test_programs_from_a_snapshot(snapshot: debian.Extraction) -> None:
    # too short: test_stops_at_self and test_drops_what_cannot_run (two lines each)
    assert sorted(p.entry or p.split_id for p in snapshot.programs if p.family == "tests") == \
        ["test_asserts", "test_sorted_copy", "test_subtests"]
    assert len([p for p in snapshot.programs if p.family == "docs"]) == 2
    assert {p.family for p in snapshot.programs} == {"tests", "docs"} and {p.origin for p in snapshot.programs} == {"debian"}
    p = next(p for p in snapshot.programs if p.entry == "test_asserts")
    assert p.call == "test_asserts()" and p.source.endswith("    result = Fraction(1, 3) * LIMIT\n")
    assert p.split_id == split_id("tests", "test_sample.py::Numbers")
    namespace: dict = {}
    exec(compile(p.source, "main.py", "exec"), namespace)
    namespace["test_asserts"]()  # it runs as it is
    drawn = debian.make_program(random.Random("x:1"))
    assert drawn is not None and drawn in snapshot.programs
    assert debian.make_program(random.Random("x:1")) == drawn  # the same stream, the same program


def test_held_out_by_test_class_and_by_page() -> None:
    # whole units: every program of a test class or a page is on one side, and the split never changes
    units = [f"test_{i}.py::Test{i % 7}" for i in range(4000)]
    flags = [held_out("tests", u) for u in units]
    assert 0.035 < sum(flags) / len(flags) < 0.065
    assert held_out("docs", "library/re.rst.txt") and not held_out("docs", "library/stdtypes.rst.txt")
    one = Candidate("tests", "test_a.py", "Cls.test_x", ["result = 1"], entry="test_x")
    other = Candidate("tests", "test_a.py", "Cls.test_y", ["result = 2"], entry="test_y")
    assert one.split_unit == other.split_unit == "test_a.py::Cls"
    assert to_program(one).split_id == to_program(other).split_id == split_id("tests", "test_a.py::Cls")
    assert Candidate("tests", "test_a.py", "test_plain", ["r = 1"], entry="test_plain").split_unit == "test_a.py"
    page = Candidate("docs", "library/re.rst.txt", "10-20", ["_ = 1"])
    assert page.split_unit == "library/re.rst.txt" and is_held_out(to_program(page).split_id)
    # the two sources are split apart
    assert split_id("tests", "x.py") != split_id("docs", "x.py")


def test_a_share_of_0_draws_what_old_recipes_drew(snapshot: debian.Extraction) -> None:
    old = Recipe(python_share=0.3, stdlib_share=0.2)
    assert old == dataclasses.replace(old, debian_share=0.0)
    assert "debian" not in old.draw_chances() and "debian" not in old.shares()
    with_debian = dataclasses.replace(old, debian_share=0.25)
    assert with_debian.shares()["debian"] == 0.25 and with_debian.generator_share == pytest.approx(0.25)
    n = 1200
    origins: collections.Counter = collections.Counter()
    for i in range(n):
        before = draw_program(random.Random(f"5:{i}"), old)
        after = draw_program(random.Random(f"5:{i}"), with_debian)
        assert before is not None and after is not None
        origins[after.origin] += 1
        if before.origin != "generated":  # the sources drawn before Debian's draw the same programs
            assert (after.source, after.call, after.program_id) == (before.source, before.call, before.program_id), i
    for origin, share in with_debian.shares().items():
        assert abs(origins[origin] / n - share) < 4 * (share * (1 - share) / n) ** 0.5 + 1e-9, (origin, origins)
    # a tokenizer's draw leaves the corpus out and keeps Debian's chance
    assert with_debian.without_corpus().draw_chances() == with_debian.draw_chances()
    with pytest.raises(ValueError, match="more than 1"):
        Recipe(stdlib_share=0.5, python_share=0.3, debian_share=0.3)


def test_licenses_are_written_down() -> None:
    assert set(LICENSES) == {"tests", "docs"}
    readme = (ROOT / "training" / "README.md").read_text()
    for source in LICENSES.values():
        assert source["license"].startswith("PSF-2.0") and source["attribution"]
        assert source["package"] in readme
    assert "Python Software Foundation" in readme


# ----------------------------------------------------------------------------------------------
# The real packages (scripts/ensure-system-deps.mjs installs them)


def _packages_or_skip() -> None:
    if debian_tests.TEST_DIR.is_dir() and debian_docs.DOC_DIR.is_dir():
        return
    message = "Debian's libpython3.11-testsuite and python3.11-doc are not installed (run `node scripts/ensure-system-deps.mjs` as root)"
    if os.environ.get("NDB_NO_DEBIAN") == "1":
        pytest.skip(f"NDB_NO_DEBIAN=1: {message}")
    raise AssertionError(message)


def test_counts_on_the_real_packages() -> None:
    _packages_or_skip()
    only = {"test_builtin.py", "string_tests.py", "test_str.py", "test_set.py", "list_tests.py", "test_list.py"}
    tests, skips = debian_tests.candidates(only=only)
    per_file = collections.Counter(c.file for c in tests)
    # measured 2026-11-26 (Debian 3.11.2-6+deb12u9): 48, 50, 41, 25 candidates
    assert per_file["test_builtin.py"] >= 35 and per_file["string_tests.py"] >= 35
    assert per_file["test_set.py"] >= 30 and per_file["list_tests.py"] >= 18
    assert skips["methods_seen"] > 350
    docs, _ = debian_docs.candidates(only={"library/stdtypes.rst.txt", "tutorial/introduction.rst.txt",
                                           "tutorial/datastructures.rst.txt"})
    assert len(docs) >= 15
    results = check(tests + docs)
    kept = [r for r in results if r["status"] == "normal"]
    assert len(kept) >= 0.6 * len(results), collections.Counter(r["status"] for r in results)
    assert sum(r["events"] for r in kept) / len(kept) > 20

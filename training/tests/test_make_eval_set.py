"""The gallery eval set: the app's example programs as the app reads them, several trajectories each."""

import json

from training import make_eval_set


def test_parse_example_strips_the_header_as_the_app_does():
    p = make_eval_set.parse_example("x", "# title: A loop\n# call: total([1, 2])\ndef total(xs):\n    return sum(xs)\n")
    assert p.call == "total([1, 2])"
    assert p.source == "def total(xs):\n    return sum(xs)\n"
    module = make_eval_set.parse_example("m", "# title: Module\n# call:\nx = 1\n")
    assert module.call == "" and module.source == "x = 1\n"


def test_every_gallery_program_has_a_source_without_header():
    programs = make_eval_set.gallery_programs()
    assert len(programs) >= 10
    for p in programs:
        assert p.program_id.startswith("gallery:")
        assert not p.source.startswith("# title:") and not p.source.startswith("# call:")


def test_gallery_set_is_fixed_by_the_seed(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    make_eval_set.main(["--source", "gallery", "--per-program", "2", "--out", str(a)])
    make_eval_set.main(["--source", "gallery", "--per-program", "2", "--out", str(b)])
    assert a.read_text() == b.read_text()
    items = [json.loads(line) for line in a.read_text().splitlines()]
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids)) == 2 * len(make_eval_set.gallery_programs())
    assert all(i["actions"] and set(i) >= {"source", "call", "start", "breakpoints", "max_events"} for i in items)


def test_families_set_draws_held_out_programs_only(tmp_path):
    from training.data.programs import is_held_out

    programs = make_eval_set.families_programs(0, 5)
    assert len(programs) == 5 and len({p.program_id for p in programs}) == 5
    assert all(is_held_out(p.program_id) for p in programs)
    assert all(p.origin == "python" for p in programs)
    # the families' programs are module scripts and calls of the constructs, not the generator's
    assert make_eval_set.families_programs(0, 5) == programs


def test_debian_set_takes_its_held_out_units_only(monkeypatch):
    from training.data import debian
    from training.data.debian_common import DebianProgram, split_id
    from training.data.programs import is_held_out

    made = [DebianProgram(source=f"x = {i}\n", call="", entry="", family="tests", program_id=f"p{i}", origin="debian", split_id=split_id("tests", f"Unit{i}"))
            for i in range(200)]
    monkeypatch.setattr(debian, "load", lambda progress=False: debian.Extraction(made, {}))
    drawn = make_eval_set.debian_programs(0, 1000)
    assert drawn and all(is_held_out(p.split_id) for p in drawn)
    assert len(drawn) == sum(is_held_out(p.split_id) for p in made)
    assert [p.program_id for p in make_eval_set.debian_programs(0, 3)] == [p.program_id for p in drawn[:3]]

"""The coverage table of docs/compat-box2d.md (issue 33): every name of pybox2d 2.3.10 is
listed with what the layer does with it, what the table says is provided exists in the layer,
what it says is refused does not, and every name the layer exports is listed
(``scripts/compat_box2d_table.py`` makes the table from the layer)."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("compat_box2d_table",
                                              ROOT / "scripts" / "compat_box2d_table.py")
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)

STATUSES = ("as Box2D", "here:", "refused:", "here only:")


@pytest.fixture(scope="module")
def rows():
    return table.parse_doc((ROOT / "docs" / "compat-box2d.md").read_text())


@pytest.fixture(scope="module")
def objects():
    return table.samples()


def test_the_table_lists_every_pybox2d_name_once_with_a_status(rows):
    names = [n for n, _, _ in rows]
    assert len(names) == len(set(names))
    pybox2d = {n for n, _ in table.read_names()}
    assert len(pybox2d) == 1149            # pybox2d 2.3.10's public names, members included
    assert pybox2d <= set(names)
    for name, _, status in rows:
        assert status.startswith(STATUSES), (name, status)
        if name not in pybox2d:
            assert status.startswith("here only:"), name


def test_what_the_table_provides_exists_and_what_it_refuses_does_not(rows, objects):
    pybox2d = {n for n, _ in table.read_names()}
    for name, _, status in rows:
        if name not in pybox2d:
            continue
        provided = table.layer_has(name, objects)
        if status.startswith("refused:"):
            assert not provided, f"{name} is in the layer now: update the table"
        else:
            assert provided, f"the table says the layer has {name}"


def test_every_name_the_layer_exports_is_in_the_table(rows, objects):
    listed = {n for n, _, _ in rows}
    exported = table.layer_names(objects)
    missing = sorted(set(exported) - listed)
    assert not missing, f"not in the table (run scripts/compat_box2d_table.py): {missing[:10]}"


def test_the_table_is_what_the_script_makes_now():
    assert table.main(["--check"]) == 0, "run python scripts/compat_box2d_table.py"


def test_most_of_pybox2d_is_here(rows):
    pybox2d = {n for n, _ in table.read_names()}
    refused = [n for n, _, s in rows if n in pybox2d and s.startswith("refused:")]
    # what is refused is Box2D's internals (allocators, broadphase, solver, SWIG helpers,
    # ghost vertices, linked lists, Dump, ShiftOrigin): an eighth of the names at most
    assert len(refused) <= len(pybox2d) // 8

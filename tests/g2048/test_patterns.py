"""Pattern sets, parsing and the 8 board symmetries."""

from __future__ import annotations

import pytest

from boardai.errors import UsageError
from boardai.g2048.patterns import PATTERN_SETS, isomorphisms, parse_patterns, pattern_names


def test_named_sets_parse_and_round_trip() -> None:
    for name in PATTERN_SETS:
        patterns = parse_patterns(name)
        assert parse_patterns(",".join(pattern_names(patterns))) == patterns
    assert parse_patterns("4x6-columns") == (
        (0, 1, 4, 5, 8, 9),
        (1, 2, 5, 6, 9, 10),
        (2, 6, 10, 9, 14, 13),
        (3, 7, 11, 10, 15, 14),
    )
    assert parse_patterns("5x6")[:4] == parse_patterns("4x6") == parse_patterns("8x6")[:4]


def test_an_old_set_name_reads_as_its_new_one_and_is_never_listed() -> None:
    assert parse_patterns("seed004") == parse_patterns("4x6-columns")  # model files keep it
    assert "seed004" not in PATTERN_SETS
    with pytest.raises(UsageError, match="unknown pattern set 'nope'") as e:
        parse_patterns("nope")
    assert "4x6-columns" in str(e.value) and "seed004" not in str(e.value)


#: The published sets (Yeh et al., Jaśkowski; TDL2048+'s 4x6patt, 5x6patt), cell sets only.
_PUBLISHED = {
    "4x6": ("012345", "456789", "012456", "45689a"),
    "5x6": ("012345", "456789", "012456", "45689a", "89abcd"),
    "8x6": ("012345", "456789", "012456", "45689a", "01259a", "0159de", "159dae", "01589c"),
    "2x4+2x6": ("0123", "4567", "012456", "45689a"),
}


@pytest.mark.parametrize("name", sorted(_PUBLISHED))
def test_named_sets_are_the_published_ones_in_another_cell_order(name: str) -> None:
    ours = [sorted(p) for p in parse_patterns(name)]
    assert ours == [sorted(p) for p in parse_patterns(",".join(_PUBLISHED[name]))]


def test_custom_lists_and_files(tmp_path) -> None:
    assert parse_patterns("0123 4567") == ((0, 1, 2, 3), (4, 5, 6, 7))
    f = tmp_path / "p.txt"
    f.write_text("# two patterns\n0123\nfedc  # the last row backwards\n")
    assert parse_patterns(f"@{f}") == ((0, 1, 2, 3), (15, 14, 13, 12))


@pytest.mark.parametrize("spec", ["", "nine", "01g3", "0113", "012345678", "@/no/such/file"])
def test_bad_patterns_are_usage_errors(spec: str) -> None:
    with pytest.raises(UsageError):
        parse_patterns(spec)


def test_isomorphisms_are_the_8_symmetries() -> None:
    isos = isomorphisms()
    assert len(set(isos)) == 8
    assert isos[0] == tuple(range(16))
    assert all(sorted(iso) == list(range(16)) for iso in isos)
    # closed under composition: a group
    as_set = set(isos)
    for a in isos:
        for b in isos:
            assert tuple(a[b[c]] for c in range(16)) in as_set

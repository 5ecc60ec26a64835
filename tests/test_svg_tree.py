"""The diagrams' element tree writes what lxml writes for the same tree,
byte for byte, and refuses what lxml refuses with the same error."""
from __future__ import annotations

import random

import pytest
from lxml import etree

from mancala_cli.diagrams.tree import SVG_NS, Element, tostring

#: Characters that exercise escaping: markup, quotes, line ends, tabs,
#: non-ASCII, and a character outside the Basic Multilingual Plane.
ALPHABET = "ab <>&\"'\n\r\t]]>é—漢\U0001F600="


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 8)))


def _twin_trees(rng: random.Random, depth: int = 0):
    """The same random tree built twice: with :mod:`.tree` and with lxml."""
    name = rng.choice(["g", "text", "rect", "title"])
    attrib = {f"a{k}": _random_text(rng) for k in range(rng.randint(0, 3))}
    mine = Element(name, dict(attrib))
    theirs = etree.Element(f"{{{SVG_NS}}}{name}", nsmap={None: SVG_NS} if depth == 0 else None)
    for key, value in attrib.items():
        theirs.set(key, value)
    if depth < 3 and rng.random() < 0.6:
        for _ in range(rng.randint(1, 3)):
            child, other = _twin_trees(rng, depth + 1)
            mine.append(child)
            theirs.append(other)
    elif rng.random() < 0.7:
        mine.text = theirs.text = _random_text(rng)  # ("" too: written <x></x>, not <x/>)
    return mine, theirs


@pytest.mark.parametrize("seed", range(300))
def test_random_trees_are_written_as_lxml_writes_them(seed):
    rng = random.Random(seed)
    mine, theirs = _twin_trees(rng)
    expected = etree.tostring(theirs, encoding="UTF-8", xml_declaration=True, pretty_print=True).decode("utf-8")
    assert tostring(mine) == expected
    assert tostring(mine, declaration=False, pretty=False) == etree.tostring(theirs, encoding="unicode")


@pytest.mark.parametrize("bad", ["\x00", "a\x01", "\x08", "\x0b", "\x0c", "x\x1f", "\ufffe", "\uffff", "ab\ud800",
                                 "\udfff", "\x01é\ud800", "é\uffff\x01"])
@pytest.mark.parametrize("where", ["text", "attribute"])
def test_what_lxml_refuses_is_refused_with_its_error(bad, where):
    theirs = etree.Element("title")
    with pytest.raises(ValueError) as expected:
        theirs.text = bad if where == "text" else None
        theirs.set("class", bad if where == "attribute" else "x")
    mine = Element("title", {"class": bad} if where == "attribute" else None, bad if where == "text" else None)
    with pytest.raises(ValueError) as got:
        tostring(mine)
    assert (type(got.value), str(got.value)) == (type(expected.value), str(expected.value))


def test_copy_is_deep_and_iter_is_document_order():
    root = Element("svg")
    group = root.add("g", {"id": "a"})
    group.add("text", {"id": "b"}, "1")
    root.add("rect", {"id": "c"})
    twin = root.copy()
    twin[0][0].text = "2"
    twin[0].set("id", "z")
    assert (root[0][0].text, root[0].get("id")) == ("1", "a")
    assert [e.get("id") for e in root.iter()] == [None, "a", "b", "c"]

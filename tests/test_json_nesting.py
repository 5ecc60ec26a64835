"""notation.json_nesting: JSON written and read without recursion, as the
JSON Lines format falls back on where the json module recurses too deep for
the interpreter (Python 3.12): the same text and the same values as the json
module, on every Python, however deep."""
import json
import sys

import pytest
from hypothesis import given, settings, strategies as st

from notation import json_nesting

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(value=VALUES)
def test_the_same_text_and_values_as_the_json_module(value):
    text = json.dumps(value, ensure_ascii=False)
    assert json_nesting.dumps(value) == text
    assert json_nesting.loads(text, max_depth=100) == json.loads(text)
    spaced = json.dumps(value, indent=2)  # (white space between every token)
    assert json_nesting.loads(spaced, max_depth=100) == json.loads(spaced)


def test_any_depth_up_to_the_bound():
    deep = []
    for _ in range(5000):
        deep = [{"variations": [deep]}]
    text = json_nesting.dumps(deep)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(50_000)
    try:
        assert text == json.dumps(deep)
    except RecursionError:  # (Python 3.12's C encoder: the reason for the module)
        pass
    finally:
        sys.setrecursionlimit(limit)
    assert json_nesting.dumps(json_nesting.loads(text, max_depth=15_001)) == text
    with pytest.raises(RecursionError, match="^JSON nested deeper than 15000 levels$"):
        json_nesting.loads(text, max_depth=15_000)


@pytest.mark.parametrize("text", ["", "[", "[1,]", '{"a" 1}', '{"a": 1,}', "[1 2]", "[1] x", "{1: 2}", "nul", '"a'])
def test_what_is_not_json_is_refused_as_the_json_module_refuses_it(text):
    with pytest.raises(json.JSONDecodeError) as ours:
        json_nesting.loads(text, max_depth=100)
    with pytest.raises(json.JSONDecodeError) as theirs:
        json.loads(text)
    if text not in ("[1,]", '{"a": 1,}'):  # (Python 3.13 tells a trailing comma at the comma itself)
        assert ours.value.pos == theirs.value.pos

"""A small element tree for the SVG diagrams, written out with the standard
library alone: a command that draws one diagram does not load an XML
library for it (start-up counts; see docs/performance.md).

:func:`tostring` writes what ``lxml.etree.tostring(root, encoding="UTF-8",
xml_declaration=True, pretty_print=True)`` writes for the trees the diagrams
build (elements of one namespace, each holding either text or elements):
the same declaration, indentation, escaping and empty elements, byte for
byte, and it refuses the same strings (a control character: ``ValueError``;
a lone surrogate: ``UnicodeEncodeError``).

    >>> root = Element("svg", {"width": "10"})
    >>> title = root.add("title", None, "a < b")
    >>> group = root.add("g", {"id": "holes"})
    >>> print(tostring(root), end="")
    <?xml version='1.0' encoding='UTF-8'?>
    <svg xmlns="http://www.w3.org/2000/svg" width="10">
      <title>a &lt; b</title>
      <g id="holes"/>
    </svg>
"""
from __future__ import annotations

import re
from collections.abc import Iterator

SVG_NS = "http://www.w3.org/2000/svg"

#: The ASCII characters XML 1.0 cannot hold (libxml2, and so lxml, refuses
#: them; beyond ASCII, U+FFFE, U+FFFF and lone surrogates).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_NOT_XML_MESSAGE = "All strings must be XML compatible: Unicode or ASCII, no NULL bytes or control characters"
#: A value that needs more than copying out: something to escape or to refuse.
_SPECIAL = re.compile("[&<>\"\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f]")
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;",
                            "\r": "&#13;", "\t": "&#9;"})


class Element:
    """An element: a name (in the SVG namespace), attributes in the order
    set, and either ``text`` or child elements."""

    __slots__ = ("tag", "attrib", "text", "children")

    def __init__(self, tag: str, attrib: dict[str, str] | None = None, text: str | None = None) -> None:
        self.tag = tag
        self.attrib: dict[str, str] = {} if attrib is None else attrib
        self.text = text
        self.children: list[Element] = []

    def add(self, tag: str, attrib: dict[str, str] | None = None, text: str | None = None) -> Element:
        """A new child element, last."""
        child = Element(tag, attrib, text)
        self.children.append(child)
        return child

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrib.get(name, default)

    def set(self, name: str, value: str) -> None:
        self.attrib[name] = value

    def append(self, child: Element) -> None:
        self.children.append(child)

    def insert(self, index: int, child: Element) -> None:
        self.children.insert(index, child)

    def __len__(self) -> int:
        return len(self.children)

    def __getitem__(self, index: int) -> Element:
        return self.children[index]

    def __iter__(self) -> Iterator[Element]:
        return iter(self.children)

    def iter(self) -> Iterator[Element]:
        """This element and every element below it, in document order."""
        stack = [self]
        while stack:
            element = stack.pop()
            yield element
            stack.extend(reversed(element.children))

    def copy(self) -> Element:
        """A deep copy: a new tree, the caller's to change."""
        twin = Element(self.tag, dict(self.attrib), self.text)
        twin.children = [child.copy() for child in self.children]
        return twin

    def __repr__(self) -> str:
        return f"<Element {self.tag} with {len(self.children)} children>"


def _escaped(value: str, table: dict[int, str]) -> str:
    """``value`` escaped with ``table``; refused as lxml refuses it: a lone
    surrogate first (``UnicodeEncodeError``, as encoding it raises), then a
    character XML cannot hold (``ValueError``)."""
    if not value.isascii():
        value.encode("utf-8")
        if "\ufffe" in value or "\uffff" in value:
            raise ValueError(_NOT_XML_MESSAGE)
    if _SPECIAL.search(value) is None:
        return value
    if _NOT_XML.search(value) is not None:
        raise ValueError(_NOT_XML_MESSAGE)
    return value.translate(table)


def _attributes(attrib: dict[str, str]) -> str:
    out = ""
    for name, value in attrib.items():
        out += f' {name}="{_escaped(value, _ATTRIBUTE)}"'
    return out


def _write(element: Element, depth: int, parts: list[str], namespace: str) -> None:
    indent = "  " * depth
    head = f"{indent}<{element.tag}{namespace}{_attributes(element.attrib)}"
    if element.children:
        parts.append(head + ">\n")
        for child in element.children:
            _write(child, depth + 1, parts, "")
        parts.append(f"{indent}</{element.tag}>\n")
    elif element.text is None:
        parts.append(head + "/>\n")
    else:
        parts.append(f"{head}>{_escaped(element.text, _TEXT)}</{element.tag}>\n")


def tostring(root: Element, *, declaration: bool = True, pretty: bool = True) -> str:
    """``root`` as an SVG document: the XML declaration (unless
    ``declaration`` is false), the SVG namespace on the root, two spaces of
    indentation per level (none at all, and no line ends, unless ``pretty``)."""
    parts = ["<?xml version='1.0' encoding='UTF-8'?>\n"] if declaration else []
    _write(root, 0, parts, f' xmlns="{SVG_NS}"')
    if pretty:
        return "".join(parts)
    return "".join(part.lstrip(" ").rstrip("\n") for part in parts)

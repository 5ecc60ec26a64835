"""The movetext of a PMN game (docs/notation.md, "A record"): its tokens,
comments and variations, read line by line.

:class:`MovetextReader` is one part of the PMN reader
(:class:`~notation.pmn_reader.Reader`, which composes it with the
:class:`~notation.pmn_tags.TagReader`, both given one
:class:`~notation.pmn_tags.ReadingState`). A line of plain moves is read in one call:
the native tokenizer's ``scan``, else word by word against a table of the
words met before (a short line) or in one scan of
:data:`~notation.grammar.PLAIN_LINE_RE`; any other token by token
(:data:`~notation.grammar.TOKEN_RE`) with an explicit stack of open
variations.
"""
from __future__ import annotations

import re

from . import grammar
from .grammar import HOLE
from .pmn_tags import DONE, ReadingState, short_repr
from .record import MAX_VARIATION_DEPTH, GameRecord, MoveNode
from .tokenizer import kernel as _kernel

__all__ = ["MovetextReader"]

# (grammar.TOKEN_RE and grammar.PLAIN_LINE_RE are compiled when first used:
# a record of plain moves read by the native tokenizer needs neither.)
#: The native scanner of plain movetext (notation.tokenizer), or None.
_SCAN = None if _kernel is None else _kernel.scan
#: Longest digit string read as a number (capture counts, NAGs, move numbers).
_MAX_DIGITS = 9

# Without the native tokenizer, a short line of plain moves is read word by
# word (``str.split``: its white space is the ``\s`` of the patterns), each
# word looked up in a table of the words met before: no match object per
# move. The table is bounded; longer lines are read by PLAIN_LINE.
#: The longest stretch of a line read word by word (canonical lines are 79).
_WORDS_MAX = 256
#: A word that is a plain move (PLAIN_MOVE without its white space), with
#: or without its move number: (num, dots, hole, cap, res). (This pattern
#: and the next are compiled by :mod:`re`, and kept in its cache, when first
#: used: the native tokenizer uses neither.)
_PLAIN_WORD = rf"(?:([0-9]{{1,9}}+)(\.\.\.|\.))?({HOLE.replace('+', '++')})(?:x([0-9]{{1,9}}+))?(\^)?\Z"
#: A word that is a move number alone: (num, dots).
_NUMBER_WORD = r"([0-9]{1,9}+)(\.\.\.|\.)\Z"
_RESULTS = frozenset(("1-0", "0-1", "1/2-1/2", "*"))
#: What a word is: a plain move (hole, captured, reserved, number, dots, the
#: hole's offset in the word), a move number (number, dots) or anything
#: else (empty). At most _MAX_WORDS words of at most _MAX_WORD characters.
_Word = tuple[()] | tuple[int, str] | tuple[str, "int | None", bool, "int | None", "str | None", int]
_WORDS: dict[str, _Word] = {}
_MAX_WORDS = 4096
_MAX_WORD = 32


def _word(word: str) -> _Word:
    """What ``word`` is (see :data:`_WORDS`), remembered while the table has room."""
    kind: _Word
    m = re.match(_PLAIN_WORD, word)
    if m is not None:
        num, dots, hole, cap, res = m.groups()
        kind = (hole, None if cap is None else int(cap), res is not None, None if num is None else int(num), dots,
                0 if num is None else len(num) + len(dots))
    else:
        n = re.match(_NUMBER_WORD, word)
        kind = () if n is None else (int(n[1]), n[2])
    if len(_WORDS) < _MAX_WORDS and len(word) <= _MAX_WORD:
        _WORDS[word] = kind
    return kind

#: A "(" being read: the line it interrupts, the move it replaces, its line
#: and column, and the comments that were waiting for the next move.
_Frame = tuple[list[MoveNode], "MoveNode | None", int, int, "list[str] | None"]


class MovetextReader:
    """The movetext of the game being read, into the shared ``state``:
    moves, numbers, NAGs, comments, variations and the result token."""

    #: The line of play being read.
    current_line: list[MoveNode]
    #: One frame per open "(": (outer line, owner move, line, column, outer pending comment).
    stack: list[_Frame]
    #: Comments waiting for the next move.
    before: list[str] | None
    #: A comment now belongs to current_line[-1].
    attach: bool
    #: The move whose comments are being gathered, and the comments (joined
    #: once: a movetext of 100,000 comments must not take quadratic time).
    comment_node: MoveNode | None
    comment_parts: list[str]
    #: (n, dots, line, column) of a move number waiting for its move.
    number: tuple[int, str, int, int] | None
    #: "text after the result token" reported.
    after_result: bool
    #: "variations nested deeper than …" reported.
    too_deep: bool
    #: "(" opened inside a variation nested too deep: skipped, only counted.
    skipping: int

    def __init__(self, state: ReadingState) -> None:
        self.state = state
        self.error = state.error
        self.problem = state.problem

    def start(self, record: GameRecord) -> None:
        """A game starts: nothing of its movetext read yet."""
        self.current_line = record.moves
        self.stack = []
        self.before = None
        self.attach = False
        self.comment_node = None
        self.comment_parts = []
        self.number = None
        self.after_result = False
        self.too_deep = False
        self.skipping = 0

    # -- problems of the movetext

    def text_after_result(self, token: str, line: int, col: int) -> None:
        if not self.after_result:
            self.after_result = True
            self.error(f"text after the result token: {short_repr(token)}", line, col)

    def dangling_number(self) -> None:
        if self.number is not None:
            n, dots, line, col = self.number
            self.number = None
            self.problem("warning", "move-number", f"move number {n}{dots} is not followed by a move",
                         line, col)

    # -- comments and variations

    def add_comment(self, text: str) -> None:
        if self.attach:
            node = self.current_line[-1]
            if node is not self.comment_node:
                self.flush_node()
                self.comment_node = node
                self.comment_parts = [] if node.comment is None else [node.comment]
            self.comment_parts.append(text)
        elif self.before is None:
            self.before = [text]
        else:
            self.before.append(text)

    def flush_node(self) -> None:
        if self.comment_node is not None:
            self.comment_node.comment = " ".join(self.comment_parts)
            self.comment_node = None

    def flush_before(self, owner: MoveNode | None) -> None:
        """Comments waiting for a move that never came: they go to the line's
        last move, else to the variation's move, else to the record."""
        if self.before is None:
            return
        text = " ".join(self.before)
        self.before = None
        node = self.current_line[-1] if self.current_line else owner
        if node is None:
            record = self.state.record
            record.comment = text if record.comment is None else record.comment + " " + text
        else:
            self.flush_node()
            node.comment = text if node.comment is None else node.comment + " " + text

    def close_variation(self, report_empty: bool) -> None:
        outer, owner, line, col, before = self.stack.pop()
        self.dangling_number()
        self.flush_before(owner)
        if self.current_line:
            if owner is not None:
                owner.variations.append(self.current_line)
        elif report_empty and owner is not None:
            self.error("empty variation", line, col)
        self.current_line = outer
        self.before = before
        self.attach = False

    def unclosed(self) -> None:
        _, _, line, col, _ = self.stack[0]
        more = len(self.stack) - 1 + self.skipping
        self.skipping = 0
        self.error("unterminated variation: '(' opened here is never closed"
                   + (f" ({more} more inside it)" if more else ""), line, col, True)
        while self.stack:
            self.close_variation(False)

    # -- lines

    def movetext(self, line: str, lineno: int, pos: int) -> None:
        end = len(line)
        if end and line[-1].isspace():  # finditer would rescan trailing blanks at every position
            end = len(line.rstrip())
        if self.skipping:
            resumed = self.skip(line, lineno, pos, end)
            if resumed is None:
                return
            pos = resumed
        at: int | None = pos
        if self.number is None and self.before is None and self.state.phase != DONE:
            at = self.plain_moves(line, lineno, pos, end)
        while at is not None:
            at = self.tokens(line, lineno, at, end)
            if at is not None:
                at = self.skip(line, lineno, at, end)

    def skip(self, line: str, lineno: int, pos: int, end: int) -> int | None:
        """Pass over the text of a variation nested too deep, counting ``(``
        and ``)``; where normal reading resumes, or ``None`` at the line's end."""
        for m in grammar.TOKEN_RE.finditer(line, pos, end):
            kind = m.lastgroup
            if kind == "OPEN":
                self.skipping += 1
            elif kind == "CLOSE":
                self.skipping -= 1
                if not self.skipping:
                    return m.end()
            elif kind == "RESULT":
                self.result_token(m.group(kind), lineno, m.start(kind) + 1)
                return m.end()
            elif kind == "OPENCOMMENT":
                self.state.comment = (lineno, m.start(kind) + 1, [line[m.start("otext"):]])
        return None

    def result_token(self, token: str, lineno: int, col: int) -> None:
        if self.stack:
            self.unclosed()
        self.dangling_number()
        record = self.state.record
        record.result = token
        record.result_at = (lineno, col)
        self.state.phase = DONE

    def tokens(self, line: str, lineno: int, pos: int, end: int) -> int | None:
        """Read the tokens of a line from ``pos``; ``None`` at its end, or
        where a variation nested too deep opens (to be skipped)."""
        for m in grammar.TOKEN_RE.finditer(line, pos, end):
            kind = m.lastgroup or "UNKNOWN"  # (every token is a named group)
            if kind == "COMMENT":
                self.add_comment(m.group("ctext"))
            elif kind == "OPENCOMMENT":
                self.state.comment = (lineno, m.start(kind) + 1, [line[m.start("otext"):]])
            elif kind == "LINECOMMENT":
                self.add_comment(line[m.start("ltext"):])
            elif self.state.phase == DONE:
                self.text_after_result(m.group(kind), lineno, m.start(kind) + 1)
            elif kind == "MOVE":
                self.move_token(m, lineno)
            elif kind == "NUMBER":
                self.number_token(m, lineno)
            elif kind == "OPEN":
                if self.open_variation(lineno, m.start(kind) + 1):
                    return m.end()
            elif kind == "CLOSE":
                if not self.stack:
                    self.error("')' without '('", lineno, m.start(kind) + 1)
                else:
                    self.close_variation(True)
            elif kind == "RESULT":
                self.result_token(m.group(kind), lineno, m.start(kind) + 1)
            elif kind == "NAG":
                self.nag_token(m, lineno)
            elif kind == "STRAY":
                self.error("'}' without '{'", lineno, m.start(kind) + 1)
            else:  # UNKNOWN
                self.error(f"unknown token {short_repr(m.group(kind))}", lineno, m.start(kind) + 1)
        return None

    def move_token(self, m: re.Match[str], lineno: int) -> None:
        hole, dest, cap, res, glyph = m.group("hole", "dest", "cap", "res", "glyph")
        col = m.start("MOVE") + 1
        captured = None
        if cap is not None:
            if len(cap) > _MAX_DIGITS:
                self.error(f"capture count too large: x{cap[:12]}...", lineno,
                           col + m.start("cap") - m.start("MOVE"))
            else:
                captured = int(cap)
        num = self.number
        if num is None:
            number = dots = None
        else:
            number, dots = num[0], num[1]
            self.number = None
        before = None
        if self.before is not None:
            before = " ".join(self.before)
            self.before = None
        # positional: the fields in MoveNode's order (faster than keywords)
        self.current_line.append(MoveNode(hole, dest, captured, res is not None, [glyph] if glyph else [], [],
                                 before, None, [], number, dots, lineno, col))
        self.attach = True

    def number_token(self, m: re.Match[str], lineno: int) -> None:
        self.dangling_number()
        num = m.group("num")
        if len(num) > _MAX_DIGITS:
            self.error(f"move number too large: {short_repr(num)}", lineno, m.start("NUMBER") + 1)
        else:
            self.number = (int(num), m.group("dots"), lineno, m.start("NUMBER") + 1)

    def open_variation(self, lineno: int, col: int) -> bool:
        """A ``(``: a variation of the last move starts; ``True`` when it is
        nested too deep (then its text is to be skipped)."""
        self.dangling_number()
        owner = self.current_line[-1] if self.current_line else None
        if owner is None:
            self.error("variation with no preceding move", lineno, col)
        if len(self.stack) >= MAX_VARIATION_DEPTH:
            # Kept out of the record (every format holds this depth), reported once;
            # its text is passed over up to its ")" (memory stays flat).
            if not self.too_deep:
                self.too_deep = True
                self.error(f"variations nested deeper than {MAX_VARIATION_DEPTH} levels: "
                           f"the deeper ones are skipped", lineno, col)
            self.skipping = 1
            return True
        self.stack.append((self.current_line, owner, lineno, col, self.before))
        self.current_line = []
        self.before = None
        self.attach = False
        return False

    def nag_token(self, m: re.Match[str], lineno: int) -> None:
        col = m.start("NAG") + 1
        value = m.group("nag")
        if not self.current_line:
            self.error(f"NAG {m.group('NAG')} without a move", lineno, col)
        elif len(value) > 3 or int(value) > 255:
            self.error(f"NAG out of range (0-255): {short_repr(m.group('NAG'))}", lineno, col)
        else:
            self.current_line[-1].nags.append(int(value))

    def plain_moves(self, line: str, lineno: int, pos: int, end: int) -> int | None:
        """Read the plain moves (:data:`~notation.grammar.PLAIN_MOVE`) from
        ``pos`` on, and a result token that ends the line, in one scan
        (:data:`~notation.grammar.PLAIN_LINE`), as the token loop would;
        return where the first other token starts, ``None`` when the line is
        read. Called with no move number or comment waiting. The native
        tokenizer's scan does the same in one call (no match per move)."""
        current_line = self.current_line
        if _SCAN is not None:
            count, other, result, col = _SCAN(line, pos, end, lineno, current_line)
            if count:
                self.attach = True
            if result is not None:
                self.result_token(result, lineno, col)
                return None
            return other if other >= 0 else None
        if end - pos <= _WORDS_MAX:
            return self.plain_words(line, lineno, pos, end)
        read = False
        for m in grammar.PLAIN_LINE_RE.finditer(line, pos, end):
            number, dots, hole, cap, res, result, other = m.groups()
            if hole is not None:
                # positional: the fields in MoveNode's order (faster than keywords)
                current_line.append(MoveNode(hole, None, None if cap is None else int(cap), res is not None, [], [],
                                    None, None, [], None if number is None else int(number), dots,
                                    lineno, m.start(3) + 1))
                read = True
                continue
            if read:
                self.attach = True
            if result is not None:
                self.result_token(result, lineno, m.start(6) + 1)
                return None
            return m.start(7)
        if read:
            self.attach = True
        return None

    def plain_words(self, line: str, lineno: int, pos: int, end: int) -> int | None:
        """:meth:`plain_moves` word by word (a short line, no native
        tokenizer): the same moves, columns and result, and the same place
        where the first other token starts."""
        words = line[pos:end].split()
        current_line = self.current_line
        find = line.find
        known = _WORDS.get
        count = len(words)
        p = pos
        k = 0
        while k < count:
            word = words[k]
            p = find(word, p)
            kind = known(word) or _word(word)
            if len(kind) == 6:  # a plain move, with its number if glued to it
                # positional: the fields in MoveNode's order (faster than keywords)
                current_line.append(MoveNode(kind[0], None, kind[1], kind[2], [], [], None, None, [], kind[3], kind[4],
                                    lineno, p + 1 + kind[5]))
                p += len(word)
                k += 1
                continue
            if len(kind) == 2 and k + 1 < count:  # a move number, then a plain move without one?
                move = known(words[k + 1]) or _word(words[k + 1])
                if len(move) == 6 and move[3] is None:
                    at = find(words[k + 1], p + len(word))
                    current_line.append(MoveNode(move[0], None, move[1], move[2], [], [], None, None, [], kind[0], kind[1],
                                        lineno, at + 1))
                    p = at + len(words[k + 1])
                    k += 2
                    continue
            break
        if k:
            self.attach = True
        if k == count:
            return None
        if k == count - 1 and words[k] in _RESULTS:
            self.result_token(words[k], lineno, p + 1)
            return None
        return p

"""The language server itself: the Language Server Protocol over standard
input and output (pygls), each request answered by the feature modules from
the documents of :mod:`.analysis`.

Documents are kept here, as :class:`~.analysis.Document` objects, and not
in pygls's workspace: an incremental change is applied to the lines it
touches (pygls would rebuild the whole text at each keystroke), and lines
end where the protocol says they do (LF, CRLF, CR: not at the other
characters :meth:`str.splitlines` breaks at). Columns go to and from the
client's position encoding (UTF-16 unless the client offers UTF-32 or
UTF-8) here.

Bad input never takes the server down: a header line or a message over a
bound is skipped with one line on standard error; a request that fails is
answered with an error and logged in one line (``window/logMessage`` and
standard error); a document over :data:`~.analysis.MAX_DOCUMENT`
characters gets one diagnostic that says so and is not checked. When the
client goes away (standard input ends), the server ends with status 0.
"""
from __future__ import annotations

import asyncio
import collections
import json
import logging
import sys
import threading
from collections.abc import Generator, Iterator
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from ..version import __version__
from .analysis import MAX_DOCUMENT, Diagnostic, Document
from .answers import Span, TextEdit
from .completion import completions
from .fixes import code_actions
from .formatting import format_document, format_range
from .framing import Bad, MessageReader
from .hover import hover as hover_answer
from .outline import symbols

__all__ = ["MancalaServer", "make_server", "serve"]

#: How long one step of checking a document may take before the server
#: answers what else is waiting, in seconds; and how often diagnostics are
#: sent while a large document is being checked.
STEP = 0.02
PARTIAL = 1.0
#: The most text, in characters, of the open documents kept as lines with
#: their analyses (games, problems, replays): past it, the documents least
#: recently opened, edited or asked about are packed (their text kept
#: compressed, their analyses dropped: :meth:`~.analysis.Document.pack`),
#: and unpacked and read again when one is edited or asked about.
MAX_ANALYSED = 64 << 20

log = logging.getLogger("mancala.lsp")

#: The protocol's severity of each of :class:`~.analysis.Diagnostic`'s
#: (hints, the server's own, are shown discreetly).
_SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
               "hint": types.DiagnosticSeverity.Hint}


class _OneLine(logging.Formatter):
    """A log record in one line: its message and the error's type and text, no traceback."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f": {type(error).__name__}: {error}"
        return "mancala lsp: " + " ".join(text.split("\n")[:1])


def _setup_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    # What goes wrong with a message reaches MancalaServer.report_server_error,
    # which says it in one line; pygls's own lines about it would be more.
    logging.getLogger("pygls").setLevel(logging.CRITICAL)


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, but the documents are the server's own: opening,
    changing and closing one goes to the server's handlers alone."""

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Iterator[Any]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Iterator[Any]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        server = self._server
        if isinstance(server, MancalaServer):
            server.exit_code = 0 if server.shut_down else 1
        yield from super().lsp_exit(*args)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Iterator[Any]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


# -- columns in the client's encoding -----------------------------------------------

def _units(text: str, column0: int, encoding: str) -> int:
    """Code-point column ``column0`` of ``text`` in the client's units."""
    if encoding == types.PositionEncodingKind.Utf32 or text.isascii():
        return column0
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text[:column0].encode("utf-8", "surrogatepass"))
    return len(text[:column0].encode("utf-16-le", "surrogatepass")) // 2


def _column(text: str, units: int, encoding: str) -> int:
    """The code-point column of ``units`` client units into ``text``."""
    if encoding == types.PositionEncodingKind.Utf32 or text.isascii():
        return min(units, len(text)) if units >= 0 else 0
    size = 1 if encoding == types.PositionEncodingKind.Utf8 else 2
    codec = "utf-8" if size == 1 else "utf-16-le"
    count = 0
    for index, char in enumerate(text):
        if count >= units * size:
            return index
        count += len(char.encode(codec, "surrogatepass"))
    return len(text)


class MancalaServer(LanguageServer):
    """The PMN language server: its documents by URI, and the checking under way for each."""

    def __init__(self) -> None:
        super().__init__("mancala", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=_Protocol)
        self.documents: dict[str, Document] = {}
        self.versions: dict[str, int | None] = {}
        self.checking: dict[str, asyncio.Task[None]] = {}
        self.max_document = MAX_DOCUMENT
        self.max_analysed = MAX_ANALYSED
        #: The documents whose analyses are kept, the most recently used last.
        self.analysed: collections.OrderedDict[str, None] = collections.OrderedDict()
        self.shut_down = False  # (a shutdown request came)
        self.hover_images = False  # (initializationOptions' hoverImages: SVG diagrams in hovers)
        self.exit_code = 0  # 1 after an exit notification without shutdown, as the protocol says

    def shutdown(self) -> None:
        """The end of the session (the client said exit, went away, or a
        signal came): pygls's own shutdown would wait for its threads, one
        of which may be blocked reading standard input for ever; the process
        ends without them (:func:`serve`'s caller exits at once)."""
        self.thread_pool.shutdown(wait=False, cancel_futures=True)

    # -- the client's encoding

    @property
    def encoding(self) -> str:
        try:
            return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)
        except RuntimeError:  # (before initialize)
            return types.PositionEncodingKind.Utf16

    def position(self, doc: Document, line0: int, column0: int) -> types.Position:
        return types.Position(line=line0, character=_units(doc.line(line0), column0, self.encoding))

    def span(self, doc: Document, span: Span | Diagnostic) -> types.Range:
        """A span (or a diagnostic's) as a range in the client's units."""
        return types.Range(self.position(doc, span.line, span.column),
                           self.position(doc, span.end_line, span.end_column))

    def place(self, doc: Document, position: types.Position) -> tuple[int, int]:
        """A client position as a 0-based line and code-point column."""
        line0 = max(position.line, 0)
        return line0, _column(doc.line(line0), position.character, self.encoding)

    # -- the messages

    def run_stdio(self, stdin: BinaryIO, stdout: BinaryIO) -> None:
        """Read messages from ``stdin`` (:class:`~.framing.MessageReader`:
        bounded, resynchronised after a bad header) and handle them until
        the input ends or the client says exit; answers go to ``stdout``."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout))
        try:
            asyncio.run(self._read_messages(MessageReader(stdin)))
        except BrokenPipeError:
            pass  # (the client went away)
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def _read_messages(self, reader: MessageReader) -> None:
        loop = asyncio.get_running_loop()
        stop = self._stop_event
        while stop is not None and not stop.is_set():
            found = await loop.run_in_executor(self.thread_pool, reader.next)
            if found is None:
                return
            if isinstance(found, Bad):
                self.say(found.message)
                continue
            self.receive(found)

    def receive(self, body: bytes) -> None:
        """One message's body: handled, or, when it is a request that cannot
        be (its parameters are not the method's, or it comes after
        ``shutdown``), answered with an error (InvalidParams, InvalidRequest);
        what is no message is logged in one line."""
        try:
            data = json.loads(body)
        except ValueError as error:
            self.say(f"a message that is not JSON: {error}")
            return
        if not isinstance(data, dict) or "jsonrpc" not in data:
            self.say("a message that is no JSON-RPC message: ignored")
            return
        method = data.get("method")
        request = "id" in data and isinstance(method, str)
        if request and self.shut_down and method != types.EXIT:
            self.refuse(data["id"], JsonRpcInvalidRequest(f"{method}: the server is shut down (only exit is "
                                                          "accepted)"))
            return
        try:
            message = self.protocol.structure_message(data)
        except JsonRpcException as error:
            reason = _reason(error)
            if request:
                self.refuse(data["id"], type(error)(f"{method}: invalid parameters: {reason}"
                                                    if error.code == -32602 else f"{method}: {reason}"))
            else:
                self.say(f"{method or 'a message'}: {reason}: ignored")
            return
        self.protocol.handle_message(message)

    def refuse(self, msg_id: Any, error: JsonRpcException) -> None:
        """Answer request ``msg_id`` with ``error`` (and say it in one line)."""
        self.say(error.message)
        self.protocol._send_data({"jsonrpc": "2.0", "id": msg_id,
                                  "error": {"code": error.code, "message": error.message}})

    # -- errors in one line

    def report_server_error(self, error: Exception, source: Any) -> None:
        """An error pygls met: one line on standard error and in the client's log."""
        message = f"{type(error).__name__}: {error}".splitlines()[0] if str(error) else type(error).__name__
        log.warning("%s", message)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error,
                                                           message=f"mancala lsp: {message}"))
        except Exception:  # noqa: BLE001 (the client may be gone)
            pass

    def say(self, message: str) -> None:
        """One line about a message that could not be handled, on standard
        error and in the client's log (if it still listens)."""
        log.warning("%s", message)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error,
                                                           message=f"mancala lsp: {message}"))
        except Exception:  # noqa: BLE001 (the client may be gone)
            pass

    def note(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        """One line in the client's log (and on standard error)."""
        log.warning("%s", message)
        self.window_log_message(types.LogMessageParams(type=kind, message=f"mancala lsp: {message}"))

    # -- checking

    def diagnostic(self, doc: Document, found: Diagnostic) -> types.Diagnostic:
        return types.Diagnostic(range=self.span(doc, found), message=found.message, code=found.code, source="mancala",
                                severity=_SEVERITIES[found.severity])

    def publish(self, uri: str) -> None:
        doc = self.documents.get(uri)
        if doc is None:
            return
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=self.versions.get(uri), diagnostics=[self.diagnostic(doc, d) for d in doc.diagnostics()]))

    def used(self, uri: str) -> None:
        """``uri`` is used now: its lines and analysis are kept, and the
        documents least recently used packed (text compressed, analysis
        dropped) while the documents unpacked hold more than
        :attr:`max_analysed` characters in all."""
        self.analysed[uri] = None
        self.analysed.move_to_end(uri)
        total = sum(self.documents[u].size for u in self.analysed if u in self.documents)
        while total > self.max_analysed and len(self.analysed) > 1:
            old, _ = self.analysed.popitem(last=False)
            doc = self.documents.get(old)
            if doc is None:
                continue
            total -= doc.size
            task = self.checking.pop(old, None)
            if task is not None:
                task.cancel()
            doc.pack()

    def check_now(self, uri: str) -> None:
        """Check what the last edit left to check: at once when that is
        quick (the usual edit), else in steps, in a task that lets the other
        messages through between them."""
        doc = self.documents[uri]
        self.used(uri)
        if self._step(uri, doc):
            self.publish(uri)
            return
        running = self.checking.get(uri)
        if running is None or running.done():
            self.checking[uri] = asyncio.get_running_loop().create_task(self._check_later(uri))

    async def _check_later(self, uri: str) -> None:
        loop = asyncio.get_running_loop()
        shown = loop.time()
        while True:
            await asyncio.sleep(0)
            doc = self.documents.get(uri)
            if doc is None:
                return
            if self._step(uri, doc):
                self.publish(uri)
                return
            if loop.time() - shown > PARTIAL:
                self.publish(uri)
                shown = loop.time()

    def _step(self, uri: str, doc: Document) -> bool:
        """One step of checking ``doc``; whether it is done. A failure (a
        bug: reading and checking never raise on bad input) is said in one
        line, and the document is left as far as it was checked."""
        try:
            return doc.advance(budget=STEP)
        except Exception as error:  # noqa: BLE001 (the server goes on with the other documents)
            self.note(f"{uri}: checking stopped: {type(error).__name__}: {error}", types.MessageType.Error)
            doc.resume = None
            return True

    def opened(self, uri: str, text: str, version: int | None) -> None:
        doc = Document(text, max_size=self.max_document)
        self.documents[uri] = doc
        self.versions[uri] = version
        if doc.too_large:
            self.note(f"{uri}: {doc.size:,} characters: not checked (the limit is {doc.max_size:,})")
        self.check_now(uri)

    def changed(self, uri: str, params: types.DidChangeTextDocumentParams) -> None:
        doc = self.documents.get(uri)
        if doc is None:
            self.note(f"{uri}: a change of a document that is not open: ignored")
            return
        was_large = doc.too_large
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                line0, column0 = self.place(doc, change.range.start)
                end_line0, end_column0 = self.place(doc, change.range.end)
                doc.replace(line0, column0, end_line0, end_column0, change.text)
            else:
                doc.set_text(change.text)
        self.versions[uri] = params.text_document.version
        if doc.too_large and not was_large:
            self.note(f"{uri}: {doc.size:,} characters: no longer checked (the limit is {doc.max_size:,})")
        self.check_now(uri)

    def closed(self, uri: str) -> None:
        self.analysed.pop(uri, None)
        self.documents.pop(uri, None)
        self.versions.pop(uri, None)
        task = self.checking.pop(uri, None)
        if task is not None:
            task.cancel()
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def document(self, uri: str) -> Document | None:
        doc = self.documents.get(uri)
        if doc is None:
            self.note(f"{uri}: a request about a document that is not open: no answer")
        else:
            self.used(uri)
        return doc

    # -- what the client can take

    def markdown(self) -> bool:
        hover = getattr(self.client_capabilities.text_document, "hover", None)
        formats = getattr(hover, "content_format", None) or []
        return types.MarkupKind.Markdown in formats

    def snippets(self) -> bool:
        completion = getattr(self.client_capabilities.text_document, "completion", None)
        item = getattr(completion, "completion_item", None)
        return bool(getattr(item, "snippet_support", False))


# -- the requests and notifications ----------------------------------------------------
#
# Each handler takes the server and the message's parameters (pygls passes
# the server to a handler whose first parameter is named ``ls``);
# make_server registers them.

_KINDS = {"move": types.CompletionItemKind.Value, "result": types.CompletionItemKind.Constant,
          "tag": types.CompletionItemKind.Property, "value": types.CompletionItemKind.EnumMember}


def did_open(ls: MancalaServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.opened(params.text_document.uri, params.text_document.text, params.text_document.version)


def did_change(ls: MancalaServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.changed(params.text_document.uri, params)


def did_close(ls: MancalaServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.closed(params.text_document.uri)


def hover(ls: MancalaServer, params: types.HoverParams) -> types.Hover | None:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    line0, column0 = ls.place(doc, params.position)
    markdown = ls.markdown()
    found = hover_answer(doc, line0, column0, markdown=markdown, images=markdown and ls.hover_images)
    if found is None:
        return None
    kind = types.MarkupKind.Markdown if found.markdown else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=found.text), range=ls.span(doc, found.span))


def completion(ls: MancalaServer, params: types.CompletionParams) -> types.CompletionList | None:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    line0, column0 = ls.place(doc, params.position)
    snippets = ls.snippets()
    items = []
    for found in completions(doc, line0, column0):
        snippet = snippets and found.snippet is not None
        items.append(types.CompletionItem(
            label=found.label, kind=_KINDS[found.kind], detail=found.detail, sort_text=found.sort,
            filter_text=found.label, documentation=found.documentation,
            text_edit=types.TextEdit(range=ls.span(doc, found.edit.span),
                                     new_text=found.snippet if snippet and found.snippet else found.edit.text),
            insert_text_format=types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText))
    return types.CompletionList(is_incomplete=False, items=items)


def _edits(ls: MancalaServer, doc: Document, found: list[TextEdit]) -> list[types.TextEdit]:
    return [types.TextEdit(range=ls.span(doc, edit.span), new_text=edit.text) for edit in found]


def formatting(ls: MancalaServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    return _edits(ls, doc, format_document(doc))


def range_formatting(ls: MancalaServer, params: types.DocumentRangeFormattingParams) -> list[types.TextEdit] | None:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    line0, _ = ls.place(doc, params.range.start)
    end_line0, _ = ls.place(doc, params.range.end)
    return _edits(ls, doc, format_range(doc, line0, end_line0))


def code_action(ls: MancalaServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    doc = ls.document(uri)
    if doc is None:
        return None
    line0, _ = ls.place(doc, params.range.start)
    end_line0, _ = ls.place(doc, params.range.end)
    given = {(d.range.start.line, d.range.start.character, str(d.code)): d for d in params.context.diagnostics}
    out = []
    for fix in code_actions(doc, line0, end_line0):
        attached = []
        if fix.diagnostic is not None:
            start = ls.position(doc, fix.diagnostic.line, fix.diagnostic.column)
            mine = ls.diagnostic(doc, fix.diagnostic)
            attached = [given.get((start.line, start.character, fix.diagnostic.code), mine)]
        out.append(types.CodeAction(
            title=fix.title, kind=types.CodeActionKind.QuickFix, diagnostics=attached or None,
            is_preferred=fix.preferred,
            edit=types.WorkspaceEdit(changes={uri: _edits(ls, doc, fix.edits)})))
    return out


def document_symbol(ls: MancalaServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol] | None:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    return [types.DocumentSymbol(name=found.name, detail=found.detail, kind=types.SymbolKind.Module,
                                 range=ls.span(doc, found.span), selection_range=ls.span(doc, found.selection))
            for found in symbols(doc)]


def initialize(ls: MancalaServer, params: types.InitializeParams) -> None:
    """The client's options (``initializationOptions``): ``hoverImages``,
    whether hovers carry the positions as SVG diagrams too (images of
    10,000 characters and more, which only some clients show; off by
    default)."""
    options = params.initialization_options
    ls.hover_images = isinstance(options, dict) and options.get("hoverImages") is True


def shutdown(ls: MancalaServer, params: None) -> None:
    ls.shut_down = True
    for task in ls.checking.values():
        task.cancel()


def make_server() -> MancalaServer:
    """The server with every feature registered (not started: :func:`serve`)."""
    server = MancalaServer()
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(types.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(types.TEXT_DOCUMENT_COMPLETION,
                   types.CompletionOptions(trigger_characters=["[", '"', "."]))(completion)
    server.feature(types.TEXT_DOCUMENT_FORMATTING)(formatting)
    server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)(range_formatting)
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                   types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))(code_action)
    server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbol)
    server.feature(types.INITIALIZE)(initialize)
    server.feature(types.SHUTDOWN)(shutdown)
    return server


def serve(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Run the server on standard input and output until the client ends
    it (``exit``) or goes away; the exit status (0, or 1 for ``exit``
    without ``shutdown``, as the protocol says). The thread that reads
    standard input may still be blocked in a read: the caller ends the
    process at once (``os._exit``), without waiting for it."""
    _setup_logging()
    server = make_server()
    server.run_stdio(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)
    return server.exit_code


def _reason(error: JsonRpcException) -> str:
    """What was wrong with a message pygls could not read, in a few words."""
    cause = error.__cause__
    leaves: list[BaseException] = []
    while cause is not None:
        inner = getattr(cause, "exceptions", None)
        if not inner:
            leaves.append(cause)
            break
        cause = inner[0]
    if leaves:
        note = getattr(leaves[0], "__notes__", None) or []
        where = f" ({note[0]})" if note else ""
        return f"{leaves[0]}{where}".splitlines()[0]
    return error.message

"""``mancala lsp`` end to end: a real client (pytest-lsp) talks to the
server over standard input and output, as an editor does, for every
feature; and clients that misbehave (garbage, a huge document, going away)
never take the server down."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("pygls", reason="the language server tests need pygls: pip install 'mancala[lsp]' "
                                    "(the test extra has it)")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="the language server tests need pytest-lsp: "
                                                      "pip install pytest-lsp (the test extra has it)")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

import mancala_cli as mancala  # noqa: E402
from mancala_cli.lsp.analysis import Document  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
DAMAGED = ROOT / "examples" / "broken" / "damaged-records.pmn"
VILLAGE = ROOT / "examples" / "kingulu-village-match.pmn"
SERVER = [sys.executable, "-m", "mancala_cli", "lsp"]

@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities("visual-studio-code")))
    yield
    await lsp_client.shutdown_session()


async def opened(client, path, text=None, uri=None):
    """Open ``path`` (or ``text`` as ``uri``) and wait for its diagnostics."""
    uri = uri or path.as_uri()
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="pmn", version=1, text=text)))
    await diagnosed(client, uri)
    return uri


async def diagnosed(client, uri, version=None):
    """The diagnostics of ``uri`` once the server has published them (for ``version``)."""
    while True:
        params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri and (version is None or params.version == version):
            return params.diagnostics


def place(d):
    return (d.range.start.line, d.range.start.character, str(d.code), d.severity)


def problems(found):
    """validate's problems among the diagnostics: errors and warnings (the server's hints left out)."""
    return [d for d in found if d.severity in (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)]


@pytest.mark.asyncio
async def test_diagnostics_are_what_validate_reports_and_follow_the_edits(client: LanguageClient):
    uri = DAMAGED.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="pmn", version=1, text=DAMAGED.read_text(encoding="utf-8"))))
    found = await diagnosed(client, uri)
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", "--format", "json", str(DAMAGED)],
                          capture_output=True, text=True, timeout=60)
    expected = [(p["line"] - 1, p["column"] - 1, p["rule"],
                 types.DiagnosticSeverity.Error if p["severity"] == "error" else types.DiagnosticSeverity.Warning)
                for line in done.stdout.splitlines() for p in json.loads(line)["problems"]]
    assert [place(d) for d in problems(found)] == expected and len(found) == len(expected)
    assert found[1].message.startswith("4... c1: c1 is not one of N's holes [position ")
    assert {d.source for d in found} == {"mancala"}
    # Incremental: d1x2 becomes d1 (line 7), then the comment of line 13 is closed.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [types.TextDocumentContentChangePartial(range=types.Range(types.Position(6, 29), types.Position(6, 31)),
                                                text="")]))
    found = await diagnosed(client, uri, 2)
    assert [str(d.code) for d in found] == ["KG-ORIGIN", "syntax", "missing-result", "bad-hole"]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=3),
        [types.TextDocumentContentChangePartial(range=types.Range(types.Position(12, 48), types.Position(12, 48)),
                                                text="}")]))
    found = await diagnosed(client, uri, 3)
    assert [str(d.code) for d in found] == ["KG-ORIGIN", "KK-EMPTY", "bad-hole"]
    # A whole-text change works too.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=4),
        [types.TextDocumentContentChangeWholeDocument(text='[Game "kingulu"]\n\n1. c1x6 *\n')]))
    assert list(await diagnosed(client, uri, 4)) == []


@pytest.mark.asyncio
async def test_columns_are_in_the_clients_encoding(client: LanguageClient):
    text = '[Game "kingulu"]\n\n{\U0001f600 \u00e9} 1. c1x5 *\n'
    uri = await opened(client, None, text, "untitled:encoding.pmn")
    (one,) = client.diagnostics[uri]
    assert place(one)[:3] == (2, 10, "bad-mark")  # the emoji counts 2 UTF-16 units
    assert one.range.end.character == 14
    hovered = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(2, 12)))
    assert hovered is not None and hovered.range.start.character == 10


@pytest.mark.asyncio
async def test_hover_shows_the_positions_before_and_after_the_move(client: LanguageClient):
    uri = await opened(client, VILLAGE)
    line = VILLAGE.read_text(encoding="utf-8").splitlines()[12]
    hovered = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(12, line.index("d1x6") + 1)))
    assert hovered.contents.kind == types.MarkupKind.Markdown
    value = hovered.contents.value
    assert value.startswith("**1. d1x6** — South's move, ply 1 (main line)")
    assert "(KG-5)" in value and "**Before**" in value and "**After**" in value and "```text" in value
    assert "](data:image/" not in value and len(value) < 2000  # (images only when asked for: hoverImages)
    assert hovered.range == types.Range(types.Position(12, line.index("d1x6")), types.Position(12, line.index("d1x6") + 4))
    nothing = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri),
                                                                       types.Position(0, 2)))
    assert nothing is None


@pytest.mark.asyncio
async def test_completion_of_moves_tags_and_game_ids(client: LanguageClient):
    text = '[Game "kingulu"]\n[\n[Game "\n\n1. c1x6 \n'
    uri = await opened(client, None, text, "untitled:complete.pmn")
    moves = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), types.Position(4, 8)))
    after = mancala.GamePosition.from_string("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1").play("c1x6")
    assert [item.label for item in moves.items] == after.legal_moves() == ["a2x1", "c2^", "d2", "f2"]
    assert moves.items[1].text_edit.new_text == "c2^" and moves.items[0].kind == types.CompletionItemKind.Value
    tags = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), types.Position(1, 1)))
    assert tags.items[0].label == "Event" and tags.items[0].insert_text_format == types.InsertTextFormat.Snippet
    assert tags.items[0].text_edit.new_text == 'Event "$1"]$0'
    ids = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), types.Position(2, 7)))
    assert [item.label for item in ids.items] == ["kimasai-mackay", "kimasai-klamroth", "kingulu"]


@pytest.mark.asyncio
async def test_formatting_and_range_formatting(client: LanguageClient):
    text = '[Game "kingulu"]   [Event "x"]\n1. c1 d2 *\n\n\n' + DAMAGED.read_text(encoding="utf-8")
    uri = await opened(client, None, text, "untitled:format.pmn")
    options = types.FormattingOptions(tab_size=4, insert_spaces=True)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        types.TextDocumentIdentifier(uri), options))
    assert [(e.range.start.line, e.range.end.line, e.new_text) for e in edits] == [
        (0, 1, '[Game "kingulu"]\n[Event "x"]\n\n1. c1x6 d2 *')]  # the damaged games are left alone
    ranged = await client.text_document_range_formatting_async(types.DocumentRangeFormattingParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(5, 0), types.Position(20, 0)), options))
    assert list(ranged) == []


@pytest.mark.asyncio
async def test_quick_fixes_come_with_their_diagnostics(client: LanguageClient):
    uri = await opened(client, DAMAGED)
    found = client.diagnostics[uri]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(6, 0), types.Position(6, 50)),
        types.CodeActionContext(diagnostics=list(found[:2]))))
    (fix,) = actions
    assert fix.title == "Write d1: the move as it is played" and fix.kind == types.CodeActionKind.QuickFix
    assert list(fix.diagnostics) == [found[0]] and fix.is_preferred
    (edit,) = fix.edit.changes[uri]
    assert (edit.range.start.character, edit.range.end.character, edit.new_text) == (27, 31, "d1")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(12, 0), types.Position(13, 20)),
        types.CodeActionContext(diagnostics=list(found[2:4]))))
    assert [(a.title, str(a.diagnostics[0].code)) for a in actions] == [
        ("Close the comment at the end of its line", "syntax"),
        ("Close the comment here and add the result *", "missing-result")]


@pytest.mark.asyncio
async def test_a_missing_move_number_is_a_hint_with_its_quick_fix(client: LanguageClient):
    text = '[Game "kingulu"]\n\nc1x6 d2 e1^ {a note} c2 *\n'
    uri = await opened(client, None, text, "untitled:numbers.pmn")
    found = client.diagnostics[uri]
    assert problems(found) == []
    assert [(place(d), d.range.end.character, d.source, d.message) for d in found] == [
        ((2, 0, "no-move-number", types.DiagnosticSeverity.Hint), 4, "mancala",
         "no move number before 1. c1x6 (canonical PMN writes it)"),
        ((2, 8, "no-move-number", types.DiagnosticSeverity.Hint), 11, "mancala",
         "no move number before 2. e1^ (canonical PMN writes it)"),
        ((2, 21, "no-move-number", types.DiagnosticSeverity.Hint), 23, "mancala",
         "no move number before 2... c2 (canonical PMN writes it)")]
    hint = found[1]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), hint.range, types.CodeActionContext(diagnostics=[hint])))
    # (the fixes of the line's diagnostics, each with its own, as for validate's problems)
    assert [(a.title, a.kind, a.is_preferred, list(a.diagnostics)) for a in actions] == [
        ("Add the move number 1.", types.CodeActionKind.QuickFix, True, [found[0]]),
        ("Add the move number 2.", types.CodeActionKind.QuickFix, True, [hint]),
        ("Add the move number 2...", types.CodeActionKind.QuickFix, True, [found[2]])]
    fix = actions[1]
    (edit,) = fix.edit.changes[uri]
    assert (edit.range.start, edit.range.end, edit.new_text) == (types.Position(2, 8), types.Position(2, 8), "2. ")
    # The editor applies it: that hint is gone, the others stay.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)]))
    found = await diagnosed(client, uri, 2)
    assert [(place(d), d.message) for d in found] == [
        ((2, 0, "no-move-number", types.DiagnosticSeverity.Hint), "no move number before 1. c1x6 (canonical PMN writes it)"),
        ((2, 24, "no-move-number", types.DiagnosticSeverity.Hint), "no move number before 2... c2 (canonical PMN writes it)")]


@pytest.mark.asyncio
async def test_the_outline_lists_the_games(client: LanguageClient):
    uri = await opened(client, DAMAGED)
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri)))
    assert [(s.name, s.detail, s.range.start.line, s.range.end.line) for s in found] == [
        ("Copied from a notebook: Amani – Baraka", "kingulu *", 0, 6),
        ("Club evening, board 2", "kimasai-klamroth *", 8, 13),
        ("Typed in after the game", "kimasai-mackay *", 15, 19)]


@pytest.mark.asyncio
async def test_requests_about_documents_never_opened_are_answered(client: LanguageClient):
    hovered = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier("file:///nowhere.pmn"), types.Position(0, 0)))
    assert hovered is None
    assert any("not open" in m.message for m in client.log_messages)


# -- clients that misbehave ---------------------------------------------------------------------

def _message(obj):
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _responses(data):
    """The messages of a server's standard output."""
    out = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = int(head.split(b"\r\n")[0].split(b":")[1])
        out.append(json.loads(rest[:length]))
        data = rest[length:]
    return out


INITIALIZE = _message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}) + \
    _message({"jsonrpc": "2.0", "method": "initialized", "params": {}})


def _open(uri, text):
    return _message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "pmn", "version": 1, "text": text}}})


def _symbols(uri, number):
    return _message({"jsonrpc": "2.0", "id": number, "method": "textDocument/documentSymbol",
                     "params": {"textDocument": {"uri": uri}}})


def _run(data, timeout=120):
    return subprocess.run(SERVER, input=data, capture_output=True, timeout=timeout)


def test_garbage_gets_one_line_each_and_the_server_goes_on():
    garbage = (b"Content-Length: 5\r\n\r\nhello"  # not JSON
               + b"\x00\xff\xfe random bytes \r\n\r\n"  # no header at all
               + b"Content-Length: 12\r\n\r\n[1, 2, 3, 4]"  # JSON, no message
               + _message({"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {"x": 1}}))
    huge = b"Content-Length: 99999999999999\r\n\r\n"  # longer than anything sent: skipped up to the end
    uri = "untitled:a.pmn"
    done = _run(INITIALIZE + _open(uri, DAMAGED.read_text(encoding="utf-8")) + garbage + _symbols(uri, 2) + huge
                + b"x" * 100_000)
    assert done.returncode == 0
    lines = done.stderr.decode().splitlines()
    assert lines and all(line.startswith("mancala lsp: ") for line in lines), lines
    assert "Traceback" not in done.stderr.decode() and len(lines) <= 5
    answers = {m.get("id"): m for m in _responses(done.stdout) if "id" in m}
    assert [s["name"] for s in answers[2]["result"]][0] == "Copied from a notebook: Amani – Baraka"


def test_the_end_of_standard_input_ends_the_server_quietly():
    done = _run(INITIALIZE)
    assert (done.returncode, done.stderr) == (0, b"")
    done = _run(b"")
    assert (done.returncode, done.stderr) == (0, b"")
    shutdown = _message({"jsonrpc": "2.0", "id": 9, "method": "shutdown"})
    done = _run(INITIALIZE + shutdown + _message({"jsonrpc": "2.0", "method": "exit"}))
    assert (done.returncode, done.stderr) == (0, b"")
    done = _run(INITIALIZE + _message({"jsonrpc": "2.0", "method": "exit"}))  # exit without shutdown
    assert (done.returncode, done.stderr) == (1, b"")


def test_exit_ends_the_server_while_its_input_is_still_open():
    """Editors send exit and wait for the process to end, the pipe still
    open; a stop signal ends it too, with 128 + the signal."""
    shutdown = _message({"jsonrpc": "2.0", "id": 9, "method": "shutdown"})
    exit_ = _message({"jsonrpc": "2.0", "method": "exit"})
    for messages, status in ((INITIALIZE + shutdown + exit_, 0), (INITIALIZE + exit_, 1), (INITIALIZE, 128 + 15)):
        server = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        server.stdin.write(messages)
        server.stdin.flush()
        if status > 128:
            answered = b""
            while b"capabilities" not in answered:  # (the server runs)
                piece = server.stdout.read1()
                assert piece, "the server ended before answering"
                answered += piece
            server.send_signal(signal.SIGTERM)
        try:
            assert server.wait(timeout=60) == status
        finally:
            server.kill()
        assert server.stderr.read() == b""
        for stream in (server.stdin, server.stdout, server.stderr):
            stream.close()


def test_a_client_that_goes_away_mid_message():
    server = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    server.stdin.write(INITIALIZE + b"Content-Length: 1000\r\n\r\n{\"jsonrpc\"")
    server.stdin.flush()
    time.sleep(0.5)
    server.stdout.close()  # gone: nothing reads its answers either
    server.stdin.close()
    assert server.wait(timeout=60) == 0
    assert b"Traceback" not in server.stderr.read()
    server.stderr.close()


def test_a_document_over_the_limit_gets_one_diagnostic_and_nothing_else():
    """A 100 MB document: one diagnostic and one log line; the others are
    still served."""
    big = ('[Game "kingulu"]\n\n1. c1x6 *\n\n' * 4_000_000)[:100_000_000]
    uri = "untitled:big.pmn"
    small = "untitled:small.pmn"
    started = time.monotonic()
    done = _run(INITIALIZE + _open(uri, big) + _open(small, DAMAGED.read_text(encoding="utf-8"))
                + _symbols(uri, 2) + _symbols(small, 3), timeout=300)
    assert done.returncode == 0, done.stderr
    messages = _responses(done.stdout)
    published = {m["params"]["uri"]: m["params"]["diagnostics"] for m in messages
                 if m.get("method") == "textDocument/publishDiagnostics"}
    (only,) = published[uri]
    assert only["code"] == "too-large" and "100,000,000 characters" in only["message"]
    assert len(published[small]) == 5
    answers = {m.get("id"): m for m in messages if "id" in m}
    assert answers[2]["result"] == [] and len(answers[3]["result"]) == 3
    assert done.stderr.decode().count("\n") == 1 and "not checked" in done.stderr.decode()
    assert time.monotonic() - started < 280


def test_one_document_of_random_bytes():
    noise = os.urandom(200_000).decode("latin-1")
    uri = "untitled:noise.pmn"
    done = _run(INITIALIZE + _open(uri, noise) + _symbols(uri, 2))
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    answers = {m.get("id"): m for m in _responses(done.stdout) if "id" in m}
    assert isinstance(answers[2]["result"], list)
    assert Document(noise).advance()  # (the same text in-process: read to its end)

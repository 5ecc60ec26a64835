"""``mancala lsp`` fed raw bytes over a pipe: it always answers a request
(an error where it cannot: InvalidParams, InvalidRequest after
``shutdown``), resynchronises after a bad header (docs/lsp.md's rule), and
stays within bounds of time and memory (each run under ``timeout`` and
``prlimit``)."""
import json
import shutil
import subprocess
import sys
import time

import pytest

pytest.importorskip("pygls", reason="the language server tests need pygls: pip install 'mancala[lsp]' "
                                    "(the test extra has it)")

PRLIMIT = shutil.which("prlimit")
#: Address space allowed to the server in these tests (the interpreter and pygls take about 250 MB).
MEMORY = 1_500_000_000


def message(obj):
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def responses(data):
    """The messages of the server's standard output (its headers: Content-Length, Content-Type)."""
    out = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = int(head.split(b"\r\n")[0].split(b":")[1])
        out.append(json.loads(rest[:length]))
        data = rest[length:]
    return out


INITIALIZE = message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}) + \
    message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
URI = "untitled:a.pmn"
OPEN = message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
    "uri": URI, "languageId": "pmn", "version": 1, "text": '[Game "kingulu"]\n\n1. c1x6 d2 *\n'}}})


def hover(number, line, character=3):
    return message({"jsonrpc": "2.0", "id": number, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": URI}, "position": {"line": line, "character": character}}})


def run(data, timeout=60):
    """The server run on ``data`` (its input then ends): status, answers by id, standard error's lines."""
    command = [sys.executable, "-m", "mancala_cli", "lsp"]
    if PRLIMIT:
        command = [PRLIMIT, f"--as={MEMORY}", "--"] + command
    done = subprocess.run(command, input=data, capture_output=True, timeout=timeout)
    answers = {m["id"]: m for m in responses(done.stdout) if "id" in m and m["id"] != 1}
    return done.returncode, answers, done.stderr.decode().splitlines()


def test_a_request_with_invalid_parameters_gets_an_invalid_params_error():
    bad_range = message({"jsonrpc": "2.0", "id": 3, "method": "textDocument/rangeFormatting", "params": {
        "textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": True},
        "range": {"start": {"line": 0}, "end": "nowhere"}}})
    status, answers, errors = run(INITIALIZE + OPEN + hover(2, -1) + bad_range + hover(4, 2))
    assert status == 0
    assert answers[2] == {"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": (
        "textDocument/hover: invalid parameters: Position.line should be in range [0:2147483647], but was -1.")}}
    assert answers[3]["error"]["code"] == -32602
    assert answers[3]["error"]["message"].startswith("textDocument/rangeFormatting: invalid parameters: ")
    assert answers[4]["result"]["contents"]["value"].startswith("1. c1x6")  # (and the server goes on)
    assert errors[0] == "mancala lsp: " + answers[2]["error"]["message"] and len(errors) == 2


def test_a_request_after_shutdown_gets_an_invalid_request_error():
    shutdown = message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    exit_ = message({"jsonrpc": "2.0", "method": "exit"})
    status, answers, errors = run(INITIALIZE + OPEN + shutdown + hover(3, 2) + exit_)
    assert status == 0 and answers[2]["result"] is None
    assert answers[3] == {"jsonrpc": "2.0", "id": 3, "error": {"code": -32600, "message": (
        "textDocument/hover: the server is shut down (only exit is accepted)")}}
    assert errors == ["mancala lsp: textDocument/hover: the server is shut down (only exit is accepted)"]


@pytest.mark.parametrize(("header", "reason"), [
    (b"Content-Length: 99999999999\r\n\r\n{}",
     "Content-Length '99999999999' is not a number of bytes from 0 to 268435456"),
    (b"Content-Length: abc\r\n\r\n{}", "Content-Length 'abc' is not a number of bytes from 0 to 268435456"),
    (b"Content-Length: -5\r\n\r\n{}", "Content-Length '-5' is not a number of bytes from 0 to 268435456"),
    (b"X-Junk: 1\r\n" * 80_000 + b"\r\n{}", "more than 32 header lines"),
    (b"junk without a colon\r\n\r\n{}", "not a header: 'junk without a colon'"),
    (b"X" * 100_000 + b"\r\n\r\n{}", "a header line longer than 4096 bytes"),
    (b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}", "no Content-Length header"),
], ids=["huge", "abc", "negative", "80k-lines", "no-colon", "long-line", "no-length"])
def test_after_a_bad_header_the_server_resynchronises_and_answers(header, reason):
    started = time.monotonic()
    at = len(INITIALIZE + OPEN)
    status, answers, errors = run(INITIALIZE + OPEN + header + hover(2, 2) + hover(3, 2))
    assert status == 0
    assert answers[2]["result"]["contents"]["value"].startswith("1. c1x6")
    assert answers[3]["result"]["contents"]["value"].startswith("1. c1x6")
    assert errors == [f"mancala lsp: bad message header at byte {at}: {reason}; "
                      "skipped to the next Content-Length header"]
    assert time.monotonic() - started < 30


def test_junk_up_to_the_end_of_the_input_is_one_line():
    status, answers, errors = run(INITIALIZE + OPEN + hover(2, 2) + b"x" * 200_000)
    assert status == 0 and answers[2]["result"] is not None
    assert errors == [f"mancala lsp: bad message header at byte {len(INITIALIZE + OPEN + hover(2, 2))}: "
                      "a header line longer than 4096 bytes; skipped to the next Content-Length header"]


@pytest.mark.parametrize("images", [True, False, None])
def test_hover_images_only_when_the_client_asks_for_them(images):
    """``initializationOptions: {"hoverImages": true}`` adds the SVG
    diagrams (two images of over 10,000 characters) to a Markdown hover;
    without it the hover has the text boards alone."""
    params = {"capabilities": {"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}}}}
    if images is not None:
        params["initializationOptions"] = {"hoverImages": images}
    start = message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}) + \
        message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    status, answers, errors = run(start + OPEN + hover(2, 2))
    value = answers[2]["result"]["contents"]["value"]
    assert (status, errors, answers[2]["result"]["contents"]["kind"]) == (0, [], "markdown")
    assert value.count("```text") == 2
    assert value.count("](data:image/svg+xml;base64,") == (2 if images else 0)
    assert len(value) > 20_000 if images else len(value) < 1_000


def test_the_analyses_kept_are_bounded_the_least_recently_used_dropped():
    """Past ``max_analysed`` characters of documents analysed, the analyses
    of those least recently used are dropped (their text kept), and made
    again when one is asked about."""
    import asyncio
    import io

    from pygls.io_ import StdoutWriter

    from mancala_cli.lsp.hover import hover
    from mancala_cli.lsp.server import MAX_ANALYSED, make_server

    assert MAX_ANALYSED == 64 << 20
    text = '[Game "kingulu"]\n\n1. c1x6 d2 *\n\n' * 100  # (3,000 characters, 100 games)

    async def session():
        server = make_server()
        server.protocol.set_writer(StdoutWriter(io.BytesIO()))
        server.max_analysed = 7_000
        for name in "abc":
            server.opened(f"untitled:{name}", text, 1)
            while any(not task.done() for task in server.checking.values()):
                await asyncio.sleep(0.01)
        kept = {uri: len(doc.games) for uri, doc in server.documents.items()}
        assert kept == {"untitled:a": 0, "untitled:b": 100, "untitled:c": 100}
        assert server.documents["untitled:a"].text == text
        doc = server.document("untitled:a")  # (what each request about it does first)
        found = hover(doc, 2, 4)
        assert found is not None and found.text.startswith("**1. c1x6**")
        assert list(server.analysed) == ["untitled:c", "untitled:a"] and server.documents["untitled:b"].games == []

    asyncio.run(session())


def test_the_open_text_kept_unpacked_is_bounded_the_rest_packed():
    """100 documents of 66,000 characters open (6.6 million characters),
    ``max_analysed`` 400,000: the documents kept as lines hold at most
    that, the others are packed (zlib), and the memory the documents hold
    stays under 5 MB (2.9 MB here; all of them as lines took 21 MB). A packed document
    gives its text back as it was, and takes an edit."""
    import asyncio
    import gc
    import io
    import random
    import tracemalloc

    from pygls.io_ import StdoutWriter

    import mancala_cli as mancala
    from mancala_cli.lsp import server as server_module
    from mancala_cli.lsp.server import make_server

    kingulu = mancala.get_game("kingulu")
    rng = random.Random(3)
    text = mancala.write(mancala.random_game(kingulu, rng, event=f"game {i}") for i in range(330))
    assert 60_000 < len(text) < 70_000
    texts = [text.replace('"game 1"', f'"game 1 of {n}"', 1) for n in range(100)]

    async def session():
        server = make_server()
        server.protocol.set_writer(StdoutWriter(io.BytesIO()))
        server.max_analysed = 400_000
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        for n, each in enumerate(texts):
            server.opened(f"untitled:{n}", each, 1)
        for task in server.checking.values():
            task.cancel()
        await asyncio.sleep(0)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        docs = server.documents
        unpacked = [uri for uri, doc in docs.items() if not doc.packed]
        assert unpacked == list(server.analysed) == [f"untitled:{n}" for n in range(94, 100)]
        assert sum(docs[uri].size for uri in unpacked) <= server.max_analysed
        assert all(doc.games == [] for doc in docs.values() if doc.packed)
        assert sum(doc.footprint for doc in docs.values()) < 100 * len(text) // 3
        assert held < 5_000_000, held
        first = docs["untitled:0"]
        assert first.packed and first.text == texts[0] and first.size == len(texts[0])
        server.changed("untitled:0", server_module.types.DidChangeTextDocumentParams(
            text_document=server_module.types.VersionedTextDocumentIdentifier(uri="untitled:0", version=2),
            content_changes=[server_module.types.TextDocumentContentChangePartial(
                range=server_module.types.Range(server_module.types.Position(0, 1),
                                                server_module.types.Position(0, 5)),
                text="Site")]))
        assert not first.packed and first.text == texts[0].replace("[Game", "[Site", 1)
        assert list(server.analysed)[-1] == "untitled:0" and docs["untitled:94"].packed

    asyncio.run(session())

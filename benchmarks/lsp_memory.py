"""The language server's peak memory with many large documents open, or
with one game of very many variations.

usage: python benchmarks/lsp_memory.py [--documents N] [--games N] [--variations N] [--limit BYTES]

``mancala lsp`` runs in a process of its own under ``prlimit --as=LIMIT``
(when prlimit is there) and is driven over its standard input and output:

* ``--documents N --games G``: N documents (``untitled:0.pmn`` …), each
  the archive of benchmarks/lsp.py with G random games (7,000 games: 1.4
  MB), opened one after the other, then a hover on a move of the first
  and of the last, then shutdown and exit;
* ``--variations N``: one document of one game whose first move has N
  variations (``1. c1x6 (d1) (d1) …``), then a hover and a completion on
  its last variation.

Printed: the server's peak resident memory (``ru_maxrss`` of the child),
the time from the first message to the last answer, and the answers'
sizes.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def message(obj: dict) -> bytes:
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(number: int, method: str, uri: str, line: int, character: int) -> bytes:
    return message({"jsonrpc": "2.0", "id": number, "method": method, "params": {
        "textDocument": {"uri": uri}, "position": {"line": line, "character": character}}})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=300)
    parser.add_argument("--games", type=int, default=7_000)
    parser.add_argument("--variations", type=int, default=0)
    parser.add_argument("--limit", type=int, default=4_000_000_000, help="prlimit --as (bytes)")
    args = parser.parse_args()

    opens: list[bytes] = []
    asks: list[bytes] = []
    if args.variations:
        text = '[Game "kingulu"]\n\n1. c1x6 ' + "(d1) " * args.variations + "*\n"
        opens.append(message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": "untitled:v.pmn", "languageId": "pmn", "version": 1, "text": text}}}))
        last = len('1. c1x6 ') + 5 * (args.variations - 1) + 1
        asks = [request(2, "textDocument/hover", "untitled:v.pmn", 2, last),
                request(3, "textDocument/completion", "untitled:v.pmn", 2, last + 3)]
        print(f"one game of {args.variations:,} variations: {len(text):,} characters")
    else:
        from lsp import archive

        text = archive(args.games)
        for n in range(args.documents):
            opens.append(message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": f"untitled:{n}.pmn", "languageId": "pmn", "version": 1, "text": text}}}))
        asks = [request(2, "textDocument/hover", "untitled:0.pmn", 5, 4),
                request(3, "textDocument/hover", f"untitled:{args.documents - 1}.pmn", 5, 4)]
        print(f"{args.documents} documents of {len(text):,} characters ({args.games:,} games)")
    head = message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}) + \
        message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    tail = message({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}) + \
        message({"jsonrpc": "2.0", "method": "exit"})

    command = [sys.executable, "-m", "mancala_cli", "lsp"]
    if shutil.which("prlimit"):
        command = ["prlimit", f"--as={args.limit}", "--"] + command
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [threading.Thread(target=lambda: out.append(process.stdout.read()), daemon=True),  # type: ignore[union-attr]
               threading.Thread(target=lambda: err.append(process.stderr.read()), daemon=True)]  # type: ignore[union-attr]
    for thread in readers:
        thread.start()
    assert process.stdin is not None
    try:
        for data in [head, *opens, *asks, tail]:
            process.stdin.write(data)
        process.stdin.close()
    except BrokenPipeError:
        print("the server went away before reading everything")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    for thread in readers:
        thread.join()
    answers = {}
    data = out[0]
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(header.split(b"\r\n")[0].split(b":")[1])
        found = json.loads(rest[:length])
        data = rest[length:]
        if "id" in found:
            answers[found["id"]] = found
    print(f"status {os.waitstatus_to_exitcode(status)}, {seconds:.1f} s, peak {usage.ru_maxrss // 1024} MB "
          f"(prlimit --as={args.limit:,})")
    for number in (2, 3):
        found = answers.get(number)
        result = None if found is None else found.get("result", found.get("error"))
        print(f"answer {number}: {json.dumps(result)[:160]}")
    lines = err[0].decode(errors="replace").splitlines()
    print(f"standard error: {len(lines)} lines", *lines[:5], sep="\n  ")


if __name__ == "__main__":
    main()

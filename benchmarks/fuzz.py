"""Fuzzing every reader with generated inputs; prints how many ran and failed.

usage: python benchmarks/fuzz.py [--inputs N] [--jobs J] [--seed S]

Inputs are mutations of valid records (bytes flipped, spans cut, repeated
or swapped, PMN tokens and control bytes inserted) and random strings. A
failure is any exception other than the reader's own documented error, or a
replay that raises; the first few are printed with their input.
"""
from __future__ import annotations

import argparse
import io
import random
import time
import traceback
from concurrent.futures import ProcessPoolExecutor

from mancala_cli import InvalidPosition, all_games, format_position, parse_position
from mancala_cli.checking import replay
from mancala_cli.random_records import random_game
from notation.jsonl import JSONRecordError, json_line_to_record, record_to_json
from notation.notation_errors import XMLArchiveError
from notation.pmn_reader import read_games
from notation.pmn_writer import write_game
from notation.xml_reader import read_archive
from notation.xml_writer import write_archive

TOKENS = ["{", "}", "(", ")", "[", "]", '"', "\\", ";", "\n", "\r\n", "\r", "1.", "12...", "x", "^", "$300",
          "$", "!!", "?!", "*", "1-0", "1/2-1/2", "-", "c1", "S7", "99", "\x00", "\ufeff", "é", "[Game \"kingulu\"]",
          "[Setup \"", "<", ">", "&", "<!DOCTYPE", "<game>", "</moves>", "9" * 30]


def seeds() -> dict[str, list]:
    rng = random.Random(7)
    pmn, js, xml, positions = [], [], [], []
    for game in all_games():
        for _ in range(3):
            record = random_game(game, rng, max_plies=30)
            report = replay(record, fill_positions=True)
            pmn.append(write_game(record))
            js.append(record_to_json(record, game.id, format_position(game, report.start)))
            out = io.BytesIO()
            write_archive([record], out, positions=True)
            xml.append(out.getvalue().decode("utf-8"))
            positions.extend((game, m.position) for m in record.moves if m.position)
    return {"pmn": pmn, "json": js, "xml": xml, "positions": positions}


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        at = rng.randint(0, len(text))
        if choice < 0.3:
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        elif choice < 0.5:
            text = text[:at] + text[at + rng.randint(1, 12):]
        elif choice < 0.65 and text:
            text = text[:at] + chr(rng.randint(0, 0x2FF)) + text[at + 1:]
        elif choice < 0.8:
            span = text[at:at + rng.randint(1, 40)]
            text = text[:at] + span * rng.randint(2, 5) + text[at:]
        else:
            other = rng.randint(0, len(text))
            a, b = sorted((at, other))
            text = text[b:] + text[a:b] + text[:a]
    return text


def run(start: int, count: int, seed: int) -> tuple[int, int, list[str]]:
    corpus = seeds()
    rng = random.Random(seed * 1_000_003 + start)
    failed = 0
    examples: list[str] = []
    for i in range(start, start + count):
        kind = ("pmn", "pmn", "json", "xml", "positions")[i % 5]
        try:
            if kind == "positions":
                game, text = rng.choice(corpus["positions"])
                text = mutate(text, rng)
                try:
                    parse_position(game, text)
                except InvalidPosition:
                    pass
            elif kind == "pmn":
                text = mutate(rng.choice(corpus["pmn"]), rng)
                for record in read_games(io.StringIO(text, newline="")):
                    replay(record, "kingulu")
                    write_game(record)
            elif kind == "json":
                text = mutate(rng.choice(corpus["json"]), rng)
                try:
                    record = json_line_to_record(text)
                except (ValueError, JSONRecordError):
                    continue
                replay(record)
            else:
                text = mutate(rng.choice(corpus["xml"]), rng)
                try:
                    for record in read_archive(text.encode("utf-8", "surrogatepass")):
                        replay(record)
                except XMLArchiveError:
                    pass
        except Exception:
            failed += 1
            if len(examples) < 3:
                examples.append(f"{kind} input {text!r}\n{traceback.format_exc()}")
    return count, failed, examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    chunk = 10_000
    ran = failed = 0
    shown = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run, start, min(chunk, args.inputs - start), args.seed)
                   for start in range(0, args.inputs, chunk)]
        for future in futures:
            count, bad, examples = future.result()
            ran += count
            failed += bad
            for example in examples:
                if shown < 5:
                    print(example)
                    shown += 1
    elapsed = time.perf_counter() - began
    print(f"fuzz: {ran:,} inputs in {elapsed:.0f} s ({ran / elapsed:,.0f}/s): {failed} failed")


if __name__ == "__main__":
    main()

"""The options of ``mancala solve`` (:mod:`.solve`) that it alone has:
the limits of the search, the cluster, and the files it reads and keeps."""
# (No ``from __future__ import annotations``, as in the other command modules.)

import typer

from ..documents import proof_glob
from ..solving.search import DEFAULT_MEMORY, DEFAULT_SECONDS
from .options import MAX_SOLVE_DEPTH, int_option, output_file
from .values import seconds_parser, size_parser

DEPTH_OPTION = int_option(None, "--depth", "-d", low=1, high=MAX_SOLVE_DEPTH, help="Search at most this many moves deep.")
NODES_OPTION = int_option(None, "--nodes", low=1, help="Search at most this many positions.")
TIME_OPTION = typer.Option(DEFAULT_SECONDS, "--time", parser=seconds_parser("--time"), metavar="SECONDS",
                           show_default=False,
                           help=f"Search for at most this many seconds (default: {DEFAULT_SECONDS:g}), "
                                "then print what is known so far.")
MEMORY_OPTION = typer.Option(DEFAULT_MEMORY, "--memory", parser=size_parser("--memory"), metavar="SIZE",
                             show_default=False,
                             help="Memory for the search's table, in bytes or as 512M, 2G (default: "
                                  f"{DEFAULT_MEMORY >> 30}G); once it is full, the search goes on, slower.")
SCHEDULER_OPTION = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                help="Split the search into tasks for the Dask cluster of this scheduler "
                                     "(tcp://HOST:8786; needs mancala[dask]); --memory is per task, --time for "
                                     "the whole search.")
TABLEBASE_OPTION = typer.Option(None, "--tablebase", metavar="FILE",
                                help="Endgame tables the search asks (mancala tablebase build).")
PROOF_OPTION = typer.Option(None, "--proof", metavar="FILE",
                            help=f"A proof file (the kingulu start's: {proof_glob()}) whose results fill in what "
                                 "the search leaves unknown; the files after it are proof files too (--proof "
                                 "FILE...), and it may be repeated.")
MORE_PROOFS_ARGUMENT = typer.Argument(None, metavar="[PROOF]...", show_default=False,
                                      help="More proof files, after --proof FILE.")
TABLE_OPTION = typer.Option(None, "--table", parser=output_file("--table"), metavar="FILE",
                            help="Keep the search's table in FILE: start from it where it exists, save it every few "
                                 "minutes and when the search stops.")

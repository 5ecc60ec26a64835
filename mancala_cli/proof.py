"""Deprecated: moved to mancala_cli.solving.proofs; this name stays for one release.

It only re-exports the public names of :mod:`mancala_cli.solving.proofs`;
importing it warns of nothing."""
from .solving.proofs import (
    HEADER,
    MAX_LINE,
    MAX_POSITIONS,
    Key,
    NoProof,
    Proof,
    ProofBook,
    ProofError,
    is_proof_file,
    key,
    write_proof,
)

__all__ = ["HEADER", "MAX_LINE", "MAX_POSITIONS", "is_proof_file", "Key", "key", "NoProof", "Proof",
           "ProofBook", "ProofError", "write_proof"]

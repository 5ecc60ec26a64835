"""The project's version, in one place: the package (``mancala_cli.__version__``),
``mancala --version``, the language server and the stamp that tells a
cluster's workers from another project's read it here."""

__version__ = "0.1.0"

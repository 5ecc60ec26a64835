"""The project's version, in one place: the package (``mancala_cli.__version__``),
``mancala --version``, the language server and the stamp that tells a
cluster's workers from another project's read it here. Beside it, the one
``TYPE_CHECKING`` constant of the modules that ``mancala --version`` loads."""

__version__ = "0.1.0"

#: ``False`` when the program runs, taken as true by type checkers: the
#: ``typing.TYPE_CHECKING`` of the modules that ``mancala --version`` loads
#: (``typing`` and what it loads slow it: docs/performance.md, 'Start-up').
TYPE_CHECKING = False

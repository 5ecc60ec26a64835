"""The build: the project's metadata is in ``pyproject.toml``; this file adds
the two native extensions.

Where a C compiler is at hand, the kernel's units in ``mancala_cli/rules/``
(``_native.c``, the module; ``native_rules.c``, ``native_search.c`` and
``native_tablebase.c``; ``native.h``, what they share) are compiled into the
extension module ``mancala_cli.rules._native``, which carries the SHA-256 of
the sources it was built from (``SOURCE_DIGEST``); ``mancala_cli.rules.selection``
uses it only while the sources beside it, where there are any, still have
that digest. Likewise ``notation/_tokenize.c``, the PMN reader's tokenizer,
becomes ``notation._tokenize`` (chosen by ``notation.tokenizer``). Where no
compiler is found, or a compilation fails, the build says so in one line
and installs the pure package (or leaves out the extension that failed): an
install never fails for lack of a compiler. ``MANCALA_PURE=1`` at build time
builds the pure package on purpose.
"""
from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

RULES = os.path.join("mancala_cli", "rules")
#: The kernel's sources, in the order their digest reads them (the .c files
#: are its units; selection.SOURCES is the same tuple).
SOURCES = ("native.h", "_native.c", "native_rules.c", "native_search.c", "native_tablebase.c")
#: What every unit is compiled with: no implicit declaration, and only the
#: module's init function exported from the shared object.
CFLAGS = ["-O2", "-Werror=implicit-function-declaration", "-fvisibility=hidden"]
#: The tokenizer's source (notation.tokenizer reads its digest).
TOKENIZER = os.path.join("notation", "_tokenize.c")


def _say(message: str) -> None:
    print(f"mancala build: {message}", file=sys.stderr)


def _compiler() -> str | None:
    """The C compiler the build would call, if it is on PATH."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def _digest(paths: list[str]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as source:
            digest.update(source.read())
    return digest.hexdigest()


def _kernel() -> list[Extension]:
    if os.environ.get("MANCALA_PURE", "") not in ("", "0"):
        _say("MANCALA_PURE is set: building the pure package")
        return []
    if _compiler() is None:
        _say("no C compiler found: building the pure package (the rules run in pure Python)")
        return []
    kernel = [os.path.join(RULES, name) for name in SOURCES]
    units = [path for path in kernel if path.endswith(".c")]
    return [Extension("mancala_cli.rules._native", sources=units, depends=kernel,
                      define_macros=[("SOURCE_DIGEST", f'"{_digest(kernel)}"')],
                      extra_compile_args=CFLAGS),
            Extension("notation._tokenize", sources=[TOKENIZER], depends=[TOKENIZER],
                      define_macros=[("SOURCE_DIGEST", f'"{_digest([TOKENIZER])}"')],
                      extra_compile_args=CFLAGS)]


class BuildKernel(build_ext):
    """Builds the extensions; a compilation that fails removes what it built
    and leaves that part pure (the rules, or the tokenizer)."""

    def run(self) -> None:
        if not self.extensions:
            return
        outputs = [self.get_ext_fullpath(extension.name) for extension in self.extensions]
        try:
            super().run()
        except Exception as error:  # CompileError, LinkError and the like
            _say(f"compiling the native extensions failed ({error}): building the pure package")
            for path in outputs:
                if os.path.exists(path):
                    os.remove(path)

    def build_extension(self, ext: Extension) -> None:
        output = self.get_ext_fullpath(ext.name)
        try:
            super().build_extension(ext)
        except Exception as error:  # CompileError, LinkError and the like
            _say(f"compiling {ext.name} failed ({error}): its pure Python code runs instead")
            if os.path.exists(output):
                os.remove(output)
            return
        _say(f"built {ext.name}")


setup(ext_modules=_kernel(), cmdclass={"build_ext": BuildKernel})

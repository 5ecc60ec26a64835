"""The build: the project's metadata is in ``pyproject.toml``; this file adds
the rules' native kernel.

Where a C compiler is at hand, ``mancala_cli/rules/_native.c`` (with the
search, ``_native_search.h``) is compiled into the extension module
``mancala_cli.rules._native``, which carries the SHA-256 of the sources it
was built from (``SOURCE_DIGEST``); ``mancala_cli.rules.selection`` uses it
only while the sources beside it, where there are any, still have that
digest. Where no compiler is found, or the compilation fails, the build says
so in one line and installs the pure package: an install never fails for
lack of a compiler. ``MANCALA_PURE=1`` at build time builds the pure package
on purpose.
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
#: The kernel's sources, in the order their digest reads them.
SOURCES = ("_native.c", "_native_search.h", "_native_tablebase.h")


def _say(message: str) -> None:
    print(f"mancala build: {message}", file=sys.stderr)


def _compiler() -> str | None:
    """The C compiler the build would call, if it is on PATH."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def _digest() -> str:
    digest = hashlib.sha256()
    for name in SOURCES:
        with open(os.path.join(RULES, name), "rb") as source:
            digest.update(source.read())
    return digest.hexdigest()


def _kernel() -> list[Extension]:
    if os.environ.get("MANCALA_PURE", "") not in ("", "0"):
        _say("MANCALA_PURE is set: building the pure package")
        return []
    if _compiler() is None:
        _say("no C compiler found: building the pure package (the rules run in pure Python)")
        return []
    return [Extension("mancala_cli.rules._native", sources=[os.path.join(RULES, "_native.c")],
                      depends=[os.path.join(RULES, name) for name in SOURCES],
                      define_macros=[("SOURCE_DIGEST", f'"{_digest()}"')],
                      extra_compile_args=["-O2"])]


class BuildKernel(build_ext):
    """Builds the kernel; a failed compilation removes what it built and
    leaves the pure package."""

    def run(self) -> None:
        if not self.extensions:
            return
        outputs = [self.get_ext_fullpath(extension.name) for extension in self.extensions]
        try:
            super().run()
        except Exception as error:  # CompileError, LinkError and the like
            _say(f"compiling the native kernel failed ({error}): building the pure package")
            for path in outputs:
                if os.path.exists(path):
                    os.remove(path)
            return
        _say("built the native kernel")


setup(ext_modules=_kernel(), cmdclass={"build_ext": BuildKernel})

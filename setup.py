"""The build: the project's metadata is in ``pyproject.toml``; this file adds
the compiled core.

Where mypyc (a build requirement) and a C compiler are both at hand, the
rules' hot modules are compiled from their own typed source, and a stamp
(``mancala_cli/rules/compiled.txt``) records the SHA-256 of every source
compiled; ``mancala_cli.rules.selection`` uses the compiled modules only
while every source still has that digest. Where either is missing, or the
compilation fails, the build says so in one line and installs the pure
package: an install never fails for lack of a compiler.
``MANCALA_PURE=1`` at build time builds the pure package on purpose.
"""
from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The rules' modules that are compiled (the registry, the selection and the
#: package's ``__init__`` stay pure: they run once per process).
COMPILED = ("core", "kingulu", "kimasai_mackay", "kimasai_klamroth", "perft", "randomgames", "solver")
RULES = os.path.join("mancala_cli", "rules")
STAMP = "compiled.txt"
#: The name of the compiled modules' group: its shared library is the
#: top-level extension module ``mancala_cli__mypyc``.
GROUP = "mancala_cli"


def _say(message: str) -> None:
    print(f"mancala build: {message}", file=sys.stderr)


def _compiler() -> str | None:
    """The C compiler the build would call, if it is on PATH."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def _compiled_core() -> list:
    if os.environ.get("MANCALA_PURE", "") not in ("", "0"):
        _say("MANCALA_PURE is set: building the pure package")
        return []
    if _compiler() is None:
        _say("no C compiler found: building the pure package (the rules run in pure Python)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: building the pure package")
        return []
    try:
        # mypy's own settings, not the project's (which check every package,
        # with stubs the build does not install); what the rules' package
        # imports for type checkers only is read but not reported on.
        options = ["--config-file", os.devnull, "--follow-imports=silent"]
        return mypycify([*options, *(os.path.join(RULES, f"{name}.py") for name in COMPILED)], opt_level="3",
                        group_name=GROUP)
    except (Exception, SystemExit) as error:  # mypy reports type errors by exiting
        _say(f"mypyc could not compile the rules ({error}): building the pure package")
        return []


def _digests() -> dict[str, str]:
    digests = {}
    for name in COMPILED:
        with open(os.path.join(RULES, f"{name}.py"), "rb") as source:
            digests[name] = hashlib.sha256(source.read()).hexdigest()
    return digests


class BuildCompiledCore(build_ext):
    """Builds the extension modules, then the stamp beside them; a failed
    compilation removes what it built and leaves the pure package."""

    def _stamp(self) -> str:
        """Where the stamp goes: beside the compiled modules."""
        return os.path.join(os.path.dirname(self.get_ext_fullpath(f"mancala_cli.rules.{COMPILED[0]}")), STAMP)

    def run(self) -> None:
        if not self.extensions:
            return
        outputs = [self.get_ext_fullpath(extension.name) for extension in self.extensions]
        stamp = self._stamp()
        try:
            super().run()
        except Exception as error:  # CompileError, LinkError and the like
            _say(f"compiling the rules failed ({error}): building the pure package")
            for path in outputs + [stamp]:
                if os.path.exists(path):
                    os.remove(path)
            return
        os.makedirs(os.path.dirname(stamp), exist_ok=True)
        with open(stamp, "w", encoding="utf-8") as out:
            out.write(f"library {GROUP}__mypyc\n")
            out.writelines(f"{module} {digest}\n" for module, digest in _digests().items())
        _say("built the compiled core")

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()
        if self.extensions and os.path.exists(self._stamp()):
            outputs.append(self._stamp())
        return outputs


setup(ext_modules=_compiled_core(), cmdclass={"build_ext": BuildCompiledCore})

"""Compile the solver's hot modules to C with mypyc; the ``.py`` files stay the reference.

    python -m solitaire.tools.compile          # what ``make install`` runs
    python -m solitaire.tools.compile --clean  # back to pure Python

mypyc (part of mypy) compiles modules that pass ``mypy --strict`` into C extensions
that behave as the same Python code does, only faster: the search runs about three
times as many positions per CPU second. Each extension lands beside its source
(``solitaire/solver.cpython-311-….so`` beside ``solitaire/solver.py``), where Python
prefers it; a stamp records a hash of the sources it was built from, so a test can tell
a stale build (``tests/engine/test_compiled.py``). Without a build, the same modules
run as plain Python and give the same answers (the test compares the two).

It also builds ``_klondike_search.c``, a hand-written C port of both searches (depth-first
and best-first) of ``solver_klondike.KlondikeModel`` for one-pack Klondike at draw two or
more and for Josephine (``KlondikeModel.native``); the Python searches it ports stay the
reference (``tests/engine/test_native_dfs.py`` and
``test_native_klondike_best_first.py``), and ``_casket_search.c``, the same for Casket's
model (``solver_casket.CasketModel.native``;
``tests/engine/test_native_casket_depth_first.py`` and ``test_native_casket_best_first.py``).

This module knows nothing of the games or the web app: it only lists files and builds.
"""

from __future__ import annotations

import argparse
import hashlib
import pathlib
import sys

PACKAGE = pathlib.Path(__file__).resolve().parent.parent
# The modules the hint and the solver spend their time in. Each is its own extension
# (mypyc's "separate" groups), so each can be rebuilt or dropped alone.
MODULES = ("bounds.py", "solver.py", "solver_klondike.py", "solver_casket.py")
# Hand-written C: both searches of one-pack Klondike and Josephine, and both of
# Casket (the models ported line for line; the Python stays the reference the tests
# compare them with).
C_EXTENSIONS = ("_klondike_search.c", "_casket_search.c")
# What the hand-written extensions share (the hash set and hashing, the depth-first and
# best-first loops); part of their build.
C_HEADERS = ("_native_search.h", "_native_python.h", "_native_dfs_loop.h", "_native_bfs_loop.h")
STAMP = PACKAGE / "compiled.stamp"


def sources_hash() -> str:
    """A hash of the compiled modules' sources, in the order they are listed."""
    digest = hashlib.sha256()
    for name in MODULES + C_EXTENSIONS + C_HEADERS:
        digest.update(name.encode())
        digest.update((PACKAGE / name).read_bytes())
    return digest.hexdigest()


def built_files() -> list[pathlib.Path]:
    """The extension files a build leaves in the package."""
    found: set[pathlib.Path] = set()
    for name in MODULES:
        stem = pathlib.Path(name).stem
        found.update(PACKAGE.glob(f"{stem}.*.so"))
        found.update(PACKAGE.glob(f"{stem}__mypyc.*.so"))
    for name in C_EXTENSIONS:
        found.update(PACKAGE.glob(f"{pathlib.Path(name).stem}.*.so"))
    return sorted(found)


def is_current() -> bool:
    """Whether a build exists and was made from the sources as they are now."""
    return STAMP.exists() and STAMP.read_text().strip() == sources_hash() and bool(built_files())


def clean() -> None:
    for path in built_files():
        path.unlink()
    STAMP.unlink(missing_ok=True)


def build(work: pathlib.Path) -> None:
    # Imported here: mypyc and setuptools are build tools, not needed to play.
    from mypyc.build import mypycify
    from setuptools import Extension, setup  # type: ignore[import-untyped]  # no stubs in its 65.x line

    clean()
    sources = [str(PACKAGE / name) for name in MODULES]
    native = [
        Extension(
            f"solitaire.{pathlib.Path(name).stem}",
            sources=[str(PACKAGE / name)],
            depends=[str(PACKAGE / header) for header in C_HEADERS],
            extra_compile_args=["-O2", "-std=c99"],
        )
        for name in C_EXTENSIONS
    ]
    setup(
        name="solitaire-compiled",
        ext_modules=mypycify(sources, separate=True, target_dir=str(work / "c")) + native,
        script_args=[
            "build_ext",
            "--inplace",
            "--build-temp",
            str(work / "temp"),
            "--build-lib",
            str(work / "lib"),
        ],
    )
    STAMP.write_text(sources_hash() + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire.tools.compile", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--clean", action="store_true", help="remove the build: run as plain Python")
    parser.add_argument("--work", default=".venv/compiled-build", help="where the generated C and objects go")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        return 0
    build(pathlib.Path(args.work).resolve())
    return 0 if is_current() else 1


if __name__ == "__main__":
    sys.exit(main())

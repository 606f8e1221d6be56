"""The web app's house rules, checked on its source: no module of ``games`` imports a
private (``_``-prefixed) name from another module, and the engine never imports Django."""

from __future__ import annotations

import ast
from pathlib import Path

import games
import solitaire

GAMES_ROOT = Path(games.__file__).parent
ENGINE_ROOT = Path(solitaire.__file__).parent


def _modules(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*.py") if "migrations" not in path.parts)


def private_imports(path: Path) -> list[str]:
    """``from x import _name`` and ``x._name`` uses, where x is another module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    imported = _imported_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [
                f"{path.name}:{node.lineno} from {node.module} import {alias.name}"
                for alias in node.names
                if _private(alias.name)
            ]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and _private(node.attr)
            and node.value.id in imported
        ):
            found.append(f"{path.name}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _imported_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def test_the_walk_finds_a_private_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from games.solo.play import _record\nfrom games.solo import play\nplay._play\n")
    assert len(private_imports(sample)) == 2


def test_no_module_of_games_imports_a_private_name_of_another() -> None:
    offenders = [hit for path in _modules(GAMES_ROOT) for hit in private_imports(path)]
    assert offenders == []


def test_games_is_split_into_rooms() -> None:
    rooms = {path.name for path in GAMES_ROOT.iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert {"core", "solo", "races", "models"} <= rooms
    assert not (GAMES_ROOT / "services.py").exists()
    assert not (GAMES_ROOT / "race_services.py").exists()


def test_core_knows_no_room() -> None:
    """games.core is shared by both rooms and imports neither of them."""
    for path in _modules(GAMES_ROOT / "core"):
        imported = _imported_modules(ast.parse(path.read_text()))
        assert not any(name.startswith(("games.solo", "games.races")) for name in imported), path


def _imported_modules(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_engine_never_imports_django() -> None:
    for path in _modules(ENGINE_ROOT):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] in ("django", "channels", "games") for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] not in ("django", "channels", "games"), path

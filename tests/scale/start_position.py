"""Start a race that has not begun from a given position: ``start_position.py <race id>``
with the position as JSON on stdin.

The scale-out suite runs this with the same environment as its web processes, so it is
Django's race service (``use_start_position``, the race's hook for tests) acting on the
database they share. Not a test module.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    sys.path.insert(0, str(ROOT))  # the project, as for manage.py
    django.setup()
    from games.races.lobby import use_start_position

    use_start_position(int(sys.argv[1]), json.load(sys.stdin))


if __name__ == "__main__":
    main()

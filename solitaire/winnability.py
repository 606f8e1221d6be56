"""``python -m solitaire.winnability``: solve seeded deals (see ``solitaire.tools.winnability``).

A thin entry point, so the command named in ``docs/winnability.md`` is short; the
tool itself lives with the other tools. The engine never imports this module.
"""

from __future__ import annotations

import sys

from .tools.winnability import main

if __name__ == "__main__":
    sys.exit(main())

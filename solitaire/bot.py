"""``python -m solitaire.bot``: the hint bot (see ``solitaire.tools.bot``).

A thin entry point, so the command named in ``docs/winnability.md`` is short; the
tool itself lives with the other tools. The engine never imports this module.
"""

from __future__ import annotations

import sys

from .tools.bot import main

if __name__ == "__main__":
    sys.exit(main())

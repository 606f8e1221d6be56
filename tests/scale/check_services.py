"""Can the scale-out suite reach PostgreSQL and Redis? ``make test-scale`` asks first.

Exit 0 when both answer. When one does not: exit 1 if CI is set (a failure, never a
skip), else exit 3 so that make can say so and skip the suite.
"""

from __future__ import annotations

import sys

from scale_support import database_url, must_not_skip, redis_url, unreachable_services

SKIP = 3


def main() -> int:
    problems = unreachable_services()
    if not problems:
        print(f"scale-out suite: PostgreSQL at {database_url()}, Redis at {redis_url()}")
        return 0
    for problem in problems:
        print(problem, file=sys.stderr)
    if must_not_skip():
        print("CI is set: the scale-out suite needs these services, so this is a failure.", file=sys.stderr)
        return 1
    print("Skipping the scale-out suite (set CI=1 to make this a failure).", file=sys.stderr)
    return SKIP


if __name__ == "__main__":
    sys.exit(main())

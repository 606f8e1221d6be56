"""The health check of one web process: GET /healthz on this machine's $PORT.

Exits 0 when the process says its database and channel layer both answer, 1 otherwise.
docker-compose's web service runs it as its health check, and the scale-out suite
uses it to wait for its processes. Standard library only: it runs inside the image
without Django.

Django refuses Host headers not in ALLOWED_HOSTS, so the check sends the first of them
(or $HEALTHCHECK_HOST).
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request

HEALTH_PATH = "/healthz"
TIMEOUT_SECONDS = 5.0


def health_host() -> str:
    """A Host header the site accepts."""
    explicit = os.environ.get("HEALTHCHECK_HOST", "").strip()
    if explicit:
        return explicit
    for entry in os.environ.get("ALLOWED_HOSTS", "").split(","):
        host = entry.strip().lstrip(".")  # ".example.com" also allows example.com
        if host and host != "*":
            return host
    return "localhost"


def check(base_url: str, host: str | None = None, timeout: float = TIMEOUT_SECONDS) -> tuple[bool, str]:
    """Is the process at ``base_url`` healthy? And what it said, or why not."""
    request = urllib.request.Request(
        base_url.rstrip("/") + HEALTH_PATH, headers={"Host": host or health_host()}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            body = answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return False, f"{error.code}: {error.read().decode('utf-8', 'replace')[:500]}"
    except (OSError, ValueError) as error:
        return False, f"no answer: {error}"
    try:
        healthy = json.loads(body).get("status") == "ok"
    except (ValueError, AttributeError):
        healthy = False
    return healthy, body


def main() -> int:
    healthy, said = check(f"http://127.0.0.1:{os.environ.get('PORT', '8000')}")
    print(said)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())

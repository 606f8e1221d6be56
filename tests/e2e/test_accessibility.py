"""An axe-core check of every kind of page, at a desktop and a phone size: no serious
or critical violation.

axe-core (MPL-2.0) is vendored as tests/e2e/vendor/axe.min.js, so the check needs no
network; the context bypasses the site's Content-Security-Policy only to inject it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_support import ANSWER_MS, api, new_game
from playwright.sync_api import Browser, Page

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def serious_violations(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in result["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"][:3]]
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {json.dumps(targets)}")
    return found


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_accessibility_violations(browser: Browser, live_server_url: str, size: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(
        base_url=live_server_url, viewport={"width": width, "height": height}, bypass_csp=True
    )
    context.set_default_timeout(ANSWER_MS)
    try:
        page = context.new_page()
        created = new_game(page, "klondike", {"draw": 3}, deal=808)
        status, race = api(page, "POST", "/api/races", {"name": "Ana", "options": {}})
        assert status == 201, race
        pages = {
            "home": "/",
            "play": created["url"],
            "race": race["url"],
            "how to play": "/how-to-play/klondike/",
            "log in": "/accounts/login/",
        }
        problems = []
        for name, url in pages.items():
            page.goto(url)
            page.wait_for_load_state("networkidle")
            problems += [f"{name}: {text}" for text in serious_violations(page)]
            # Every page names its icon and the web-app manifest, so the site installs.
            for rel in ("icon", "manifest", "apple-touch-icon"):
                if page.locator(f'link[rel="{rel}"]').count() != 1:
                    problems.append(f"{name}: no link rel={rel}")
        assert not problems, "\n".join(problems)
        manifest = page.request.get(page.locator('link[rel="manifest"]').get_attribute("href") or "")
        assert manifest.ok
        described = manifest.json()
        assert described["start_url"] == "/" and described["display"] == "standalone"
        for icon in described["icons"]:
            assert page.request.get(icon["src"]).ok, icon
    finally:
        context.close()

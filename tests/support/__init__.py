"""What the web, scale and browser suites share: one in-process socket client, session
cookies, known positions, solo helpers and a fixture that empties every cache.

Import as ``tests.support`` (run pytest from the repository root)."""

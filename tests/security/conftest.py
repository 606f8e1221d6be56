"""Fixtures for the security suite (issue 11)."""

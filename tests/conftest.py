"""Shared test setup for every suite: nothing here may depend on a browser or a server.

pytest-django finds the settings (pyproject.toml) and puts the project root on the path.
"""

"""The Django project: settings, the ASGI router and the root URLs."""

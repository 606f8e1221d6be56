"""The ASGI entry point: HTTP goes to Django, WebSockets to the Channels consumers.

WebSocket connections are checked by their Origin header: scheme, host and port must be
the site's own (a Host in ALLOWED_HOSTS) or a CSRF_TRUSTED_ORIGINS entry
(games.core.middleware.OriginValidator). They carry the Django session and user, which
the consumers use to decide who may watch or move.
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models, consumers included.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.core.middleware import OriginValidator  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": OriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

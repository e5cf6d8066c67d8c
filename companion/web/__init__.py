"""The phone page: a Flask app served by waitress inside the daemon.

Phones on the table's Wi-Fi open it (from a QR code) to set up the table, play, keep the score
and calibrate the launcher. It talks to the rest of the daemon only through the
:class:`~companion.web.ports.Hub` port.

Build and serve::

    app = create_app(hub, config.web, Catalog.load())
    server = serve(app, config.web)
    ...
    server.stop()
"""

from companion.web.app import create_app
from companion.web.config import WebConfig
from companion.web.ports import Hub, Subscription
from companion.web.server import WebServer, serve

__all__ = [
    "Hub",
    "Subscription",
    "WebConfig",
    "WebServer",
    "create_app",
    "serve",
]

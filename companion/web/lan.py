"""The page's own address on the table's network, and a QR code of it for other phones."""

from __future__ import annotations

import io
import socket

import segno


def lan_address(host: str) -> str:
    """The IP address phones should use: ``host`` itself unless it listens everywhere."""
    if host not in ("0.0.0.0", "", "::"):
        return host
    # Connecting a UDP socket sends nothing; it only asks the kernel which interface routes out.
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, never sent to
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def page_urls(host: str, port: int) -> list[str]:
    """Addresses of the page: the IP address first (old Android phones do not resolve ``.local``)
    then the avahi name."""
    urls = [f"http://{lan_address(host)}:{port}/"]
    name = socket.gethostname().split(".")[0]
    if name and name != "localhost":
        urls.append(f"http://{name}.local:{port}/")
    return urls


def qr_svg(url: str) -> str:
    """An SVG QR code of ``url`` (dark modules on white, readable in dark mode too)."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    # A standalone image (with its namespace) so <img src="/api/qr.svg"> can show it.
    code.save(out, kind="svg", scale=4, border=2, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue().decode()

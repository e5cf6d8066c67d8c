"""The phone page against a hostile or careless guest: text that is not text, deep nesting, huge
bodies, a web site reaching the box by a name of its own, idle sockets, phones that leave, a busy
hub; and a real game file imported over HTTP. After each attack the state still reads."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app.hub import Hub
from companion.app.scorekeeper import ScoreKeeper
from companion.core.scoring import game_from_json, game_to_json
from companion.core.table import TableEngine
from companion.i18n import Catalog
from companion.storage import Storage
from companion.web import WebConfig, WebServer, create_app, serve
from tests.helpers import wait_for
from tests.test_web_api import PLAYERS, csrf, make_app, make_hub
from tests.test_web_stream import EventStream

NOT_TEXT = ["Al\ud800ice", "\udfff", "Bob\x00", "\x1b[31mred", "two\nlines", "tab\there"]


def string_fields(schema: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Paths to every string (or list of strings) field of an action schema."""
    for name, prop in schema.get("properties", {}).items():
        if prop.get("type") == "string" and "enum" not in prop:
            yield (*path, name)
        elif prop.get("type") == "array" and prop.get("items", {}).get("type") == "string":
            yield (*path, name, "[]")


def payload_with(path: tuple[str, ...], text: str) -> dict[str, Any]:
    if path[-1] == "[]":
        return {path[0]: [text, "Bruno"]}
    return {path[0]: text}


def post_action(client: FlaskClient, name: str, payload: Any) -> Any:
    """Post as a browser's JSON.stringify does: ``\\ud800`` travels as an escape."""
    body = json.dumps({"payload": payload})
    headers = {**csrf(client), "Content-Type": "application/json"}
    return client.post(f"/api/actions/{name}", data=body, headers=headers)


def refused_and_readable(client: FlaskClient, response: Any, status: int = 400) -> str:
    assert response.status_code == status, (response.status_code, response.get_data(True))
    key = str(response.get_json()["error"]["key"])
    assert response.get_json()["error"]["message"] != key
    assert client.get("/api/state").status_code == 200
    return key


def test_text_that_is_not_text_is_refused_in_every_field() -> None:
    hub = make_hub()
    client = make_app(hub).test_client()
    before = hub.state()
    tried = 0
    for name, schema in hub.action_schemas().items():
        for path in string_fields(schema):
            for text in NOT_TEXT:
                response = post_action(client, name, payload_with(path, text))
                assert refused_and_readable(client, response) == "input.bad_text", (name, path)
                tried += 1
    assert tried >= 60
    assert hub.state() == before
    # A key of a free-form object is text too.
    response = post_action(client, "score.record_round", {"hands": {"Al\ud800": {"points": 1}}})
    assert refused_and_readable(client, response) == "input.bad_text"


def test_names_are_normalised_once_so_two_phones_mean_the_same_player() -> None:
    hub = make_hub()
    client = make_app(hub).test_client()
    decomposed = "Chloe\u0301"  # "Chloé" typed with a combining accent
    response = post_action(client, "table.setup", {"players": ["Alice", decomposed, "David"]})
    assert response.status_code == 200, response.get_json()
    names = [p["name"] for p in client.get("/api/state").get_json()["table"]["players"]]
    assert names == ["Alice", "Chloé", "David"]
    assert post_action(client, "table.call_uno", {"player": "Chloé"}).status_code == 200


def test_deep_nesting_and_bad_bodies_are_refused_and_the_state_still_reads() -> None:
    hub = make_hub()
    client = make_app(hub).test_client()
    before = hub.state()
    headers = {**csrf(client), "Content-Type": "application/json"}
    nested = '{"a":' * 1200 + '"x"' + "}" * 1200
    bodies = [
        "[" * 60_000,
        '{"payload": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"payload": {"hands": ' + nested + "}}",
        '{"payload": {"player": "Al\\ud800ice"}}',
        '{"payload": {"cards": NaN}}',
        '{"payload": {"cards": 1e999}}',
        b'{"payload": {"player": "\xff\xfe"}}',
    ]
    for body in bodies:
        for action in ("table.press", "table.reload", "score.record_round"):
            response = client.post(f"/api/actions/{action}", data=body, headers=headers)
            refused_and_readable(client, response)
    assert hub.state() == before


def test_a_busy_hub_answers_503_and_changes_nothing() -> None:
    hub = Hub(TableEngine(PLAYERS, seed=1), dispatch_timeout=0.2)
    client = make_app(hub).test_client()
    token = csrf(client)
    release = threading.Event()
    with hub.running():
        hub.call(lambda: release.wait(5))  # a long piece of work holds the hub thread
        try:
            response = client.post(
                "/api/actions/table.play", json={"payload": {"card": "skip"}}, headers=token
            )
            assert response.status_code == 503 and response.headers["Retry-After"]
            assert response.get_json()["error"]["key"] == "errors.busy"
            assert client.get("/api/state").status_code == 200  # the last state, from cache
            hub.changed("device")  # no cache now: the state must come from the busy hub
            reading = client.get("/api/state")
            assert reading.status_code == 503 and reading.get_json()["error"]["message"]
        finally:
            release.set()
        assert client.get("/api/state").get_json()["table"]["last_card"] is None


def test_only_the_boxs_own_names_and_addresses_are_served() -> None:
    hub = make_hub()
    client = make_app(hub, allowed_hosts=["uno.maison.lan"]).test_client()
    for host in ("localhost", "127.0.0.1:8080", "[::1]:8080", "192.168.1.20", "UNO.maison.lan."):
        assert client.get("/api/state", headers={"Host": host}).status_code == 200, host
    own = socket.gethostname().split(".")[0]
    assert client.get("/api/state", headers={"Host": f"{own}.local:8080"}).status_code == 200
    before = hub.state()
    # DNS rebinding: a page of evil.example, its name now pointing at the box.
    for host in ("evil.example", "evil.example:8080", "192.168.1.20.evil.example", "", "a:b:c"):
        for response in (
            client.get("/api/state", headers={"Host": host}),
            client.get("/", headers={"Host": host}),
            client.post(
                "/api/actions/table.press",
                json={"payload": {}},
                headers={"Host": host, "Origin": f"http://{host}", **csrf(client)},
            ),
        ):
            assert response.status_code == 400, host
            assert response.get_json()["error"]["key"] == "input.bad_host"
    english = client.get("/api/state", headers={"Host": "evil.example", "Accept-Language": "en"})
    assert "does not answer" in english.get_json()["error"]["message"]
    assert hub.state() == before


# ---------------------------------------------------------------------- a real game file


def record_evening(tmp_path: Path) -> str:
    """A real game: twelve rounds recorded through the hub, exported as the file a user keeps."""
    with Storage.open(tmp_path / "first", backups=0) as storage:
        hub = Hub(TableEngine(PLAYERS, seed=3))
        keeper = ScoreKeeper(lambda: storage, clock=lambda: datetime(2026, 11, 21, 20, tzinfo=UTC))
        keeper.attach(hub)
        hub.dispatch("score.new_game", {"ruleset": "extreme", "name": "Samedi soir"})
        for number in range(12):
            hands = {p: {"points": (number * 7 + i * 13) % 60} for i, p in enumerate(PLAYERS)}
            winner = PLAYERS[number % 4]
            hands[winner] = {"points": 0}
            hub.dispatch("score.record_round", {"hands": hands, "winner": winner})
        assert keeper.book is not None
        return game_to_json(keeper.book)


def test_a_real_exported_game_imports_over_http(tmp_path: Path) -> None:
    text = record_evening(tmp_path)
    assert len(text) > 5_000 and "\n" in text  # far beyond the old 200-character cap
    with Storage.open(tmp_path / "second", backups=0) as storage:
        hub = Hub(TableEngine(PLAYERS, seed=3))
        ScoreKeeper(lambda: storage).attach(hub)
        client = make_app(hub).test_client()
        response = post_action(client, "score.import", {"format": "json", "text": text})
        assert response.status_code == 200, response.get_data(True)
        score = response.get_json()["score"]
        assert score["game"]["name"] == "Samedi soir" and score["revision"] == 12
        stored = storage.list_games()[0]
        assert stored.revision == 12
        imported = storage.load_game(stored.game_id)
        assert imported.standings() == game_from_json(text).standings()
        # One field too large is refused before the body is read, and the limit is per action.
        huge = post_action(client, "score.import", {"text": "x" * 11_000_000})
        assert huge.status_code == 413 and huge.get_json()["error"]["message"]
        press = post_action(client, "table.press", {"player": "x" * 100_000})
        assert press.status_code == 413


# ---------------------------------------------------------------------- served for real


@pytest.fixture
def served() -> Iterator[tuple[Hub, Any, WebServer]]:
    hub = make_hub()
    hub.start()
    config = WebConfig(
        host="127.0.0.1",
        port=0,
        threads=6,
        keepalive_seconds=30,
        per_client_connections=8,
        idle_seconds=5,
    )
    app = create_app(hub, config, Catalog.load())
    server = serve(app, config)
    try:
        yield hub, app, server
    finally:
        server.stop()
        hub.stop()


def get_status(port: int, path: str = "/api/state", timeout: float = 3.0) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
        )
        head = sock.recv(64).decode()
    return int(head.split()[1])


def exchange(port: int, *parts: bytes) -> tuple[int, dict[str, str], Any]:
    """Send ``parts`` on a fresh socket; the status, headers and JSON body of the answer."""
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
        try:
            for part in parts:
                sock.sendall(part)
        except (BrokenPipeError, ConnectionResetError):  # refused while the body still came
            pass
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except ConnectionResetError:  # closed on unread body: the answer had come first
            pass
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, json.loads(body)


def test_what_the_server_refuses_itself_is_json_in_the_phones_language(
    served: tuple[Hub, Any, WebServer],
) -> None:
    port = served[2].port
    post = b"POST /api/actions/table.press HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    english = b"Accept-Language: en-GB,en;q=0.8\r\n"
    chunk = b"%x\r\n" % 65536 + b"x" * 65536 + b"\r\n"
    attacks = {
        # 500 MB announced: refused from its Content-Length, without waiting for the rest.
        "huge body": (413, (post + b"Content-Length: 500000000\r\n\r\n", b"x" * 65536)),
        # No length announced: refused once past the limit (8 MB), not at the end.
        "chunked": (413, (post + b"Transfer-Encoding: chunked\r\n\r\n", *[chunk] * 130)),
        "request line": (400, (b"GET /api/state HTTP/1.1 and more\r\nHost: 127.0.0.1\r\n\r\n",)),
        "headers": (431, (post + b"X-Pad: " + b"p" * 20_000 + b"\r\n\r\n",)),
        "encoding": (501, (post + b"Transfer-Encoding: gzip\r\n\r\n",)),
    }
    keys = set()
    for name, (status, parts) in attacks.items():
        for language, head in (("fr", b""), ("en", english)):
            first = parts[0].replace(b"\r\n", b"\r\n" + head, 1)
            got, headers, answer = exchange(port, first, *parts[1:])
            if name == "headers":
                language = "fr"  # headers too large are not read: the table's language
            assert got == status, (name, language, got, answer)
            assert headers["content-type"] == "application/json", name
            assert headers["content-language"] == language, name
            keys.add(answer["error"]["key"])
            message = answer["error"]["message"]
            assert message == Catalog.load().text(answer["error"]["key"], language), name
        assert get_status(port) == 200, name
    assert keys == {
        "web.error_too_large",
        "web.error_bad_request",
        "web.error_headers_too_large",
        "web.error_not_implemented",
    }
    # ?lang= wins over the header, as on the app's own errors.
    lang_en = post.replace(b"press", b"press?lang=en") + b"Content-Length: 9000000\r\n\r\n"
    assert exchange(port, lang_en)[1]["content-language"] == "en"


def test_idle_sockets_of_one_address_cannot_lock_the_others_out(
    served: tuple[Hub, Any, WebServer],
) -> None:
    port = served[2].port
    hoard = []
    try:
        for _ in range(40):  # far beyond the 8 one address may hold
            sock = socket.socket()
            sock.bind(("127.0.0.2", 0))  # another "phone" on the loopback network
            sock.settimeout(3)
            sock.connect(("127.0.0.1", port))
            hoard.append(sock)
        started = time.monotonic()
        assert get_status(port) == 200
        assert time.monotonic() - started < 2.5

        def still_open() -> int:
            count = 0
            for sock in hoard:
                sock.setblocking(False)
                try:
                    sock.recv(1)  # b"": closed by the box
                except BlockingIOError:
                    count += 1
                except OSError:
                    pass
            return count

        # The server's loop closes the extra ones on its next pass.
        wait_for(lambda: still_open() <= 8, timeout=10, what="the extra sockets closed")
        assert still_open() == 8  # the eight one address may hold stay open
    finally:
        for sock in hoard:
            sock.close()


def test_a_phone_that_leaves_frees_its_stream_slot_at_once(
    served: tuple[Hub, Any, WebServer],
) -> None:
    _, app, server = served
    port = server.port
    context = app.extensions["uno_web"]
    stream = EventStream(port)
    stream.next_state()
    assert context.streams == 1
    stream.close()
    # The keep-alive is 30 s away: only the lookahead sees it.
    wait_for(lambda: context.streams == 0, timeout=3, what="the stream slot freed")


def test_a_phone_reading_slowly_does_not_pile_states_up_in_memory(
    served: tuple[Hub, Any, WebServer],
) -> None:
    hub, _, server = served
    port = server.port
    hub.register_status("padding", lambda: {"text": "x" * 100_000})  # a 100 KB state
    slow = socket.socket()
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.settimeout(3)
    slow.connect(("127.0.0.1", port))
    try:
        slow.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # then never reads
        channels = server.channels
        most = 0
        for _ in range(200):  # 20 MB of states for that phone
            hub.call(lambda: hub.changed("device")).result(2)
            time.sleep(0.002)
            most = max([most, *(c.total_outbufs_len for c in list(channels.values()))])
        assert 0 < most <= 256 * 1024  # some states, never the 20 MB sent
        assert get_status(port) == 200  # the others are served meanwhile
    finally:
        slow.close()


def test_stopping_the_server_twice_or_after_its_loop_ended_is_quiet(
    served: tuple[Hub, Any, WebServer],
) -> None:
    """The daemon's stop and a test's (or a signal's) may both stop the page: the second stop
    must not write to the loop's closed wake-up pipe."""
    server = served[2]
    port = server.port
    server.stop()
    server.stop()  # and the fixture stops it a third time
    with pytest.raises(OSError):
        get_status(port, timeout=0.5)
    hub = make_hub()
    config = WebConfig(host="127.0.0.1", port=0)
    never_started = WebServer(create_app(hub, config, Catalog.load()), config)
    never_started.stop()  # no loop to ask: the listening socket is closed here
    with pytest.raises(OSError):
        get_status(never_started.port, timeout=0.5)

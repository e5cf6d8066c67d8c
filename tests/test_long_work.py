"""Long work (a game file read and stored) runs where it cannot hold the table: a thread of its
own at a lower priority, the collector held, the interpreter handed over sooner."""

from __future__ import annotations

import contextvars
import gc
import os
import random
import sys
import threading
import time
import unicodedata
from typing import Any

import pytest

from companion.app.hub import TABLE_SWITCH_INTERVAL, Hub
from companion.app.longwork import (
    LONG_WORK_SWITCH_INTERVAL,
    URGENT_WAIT_S,
    LongWork,
)
from companion.core.payload import nfc
from companion.web import chart, scoreview
from tests.test_web_api import make_app, make_hub

CALLER = contextvars.ContextVar("caller", default="nobody")


def seen_from_inside() -> dict[str, Any]:
    seen: dict[str, Any] = {
        "thread": threading.current_thread().name,
        "collector_on": gc.isenabled(),
        "switch_interval": sys.getswitchinterval(),
        "caller": CALLER.get(),
    }
    if hasattr(os, "getpriority"):
        seen["niceness"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    return seen


def test_long_work_runs_on_its_own_thread_and_leaves_the_interpreter_as_it_was() -> None:
    collector_was_on, interval = gc.isenabled(), sys.getswitchinterval()
    CALLER.set("a phone's request")
    seen = LongWork().run(seen_from_inside)
    assert seen["thread"] == "long-work"
    assert seen["collector_on"] is False
    assert seen["switch_interval"] == min(interval, LONG_WORK_SWITCH_INTERVAL)
    assert seen["caller"] == "a phone's request"  # the caller's context goes along
    if sys.platform == "linux":
        assert seen["niceness"] == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
        # the caller's thread keeps its own priority
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) < seen["niceness"]
    assert gc.isenabled() is collector_was_on
    assert sys.getswitchinterval() == interval


def test_long_work_inside_long_work_runs_at_once_on_the_same_thread() -> None:
    work = LongWork()
    outer, inner = work.run(lambda: (seen_from_inside(), work.run(seen_from_inside)))
    assert outer["thread"] == inner["thread"] == "long-work"
    assert work.running == 0


def test_long_works_side_by_side_share_one_hold_until_the_last_ends() -> None:
    work = LongWork()
    interval = sys.getswitchinterval()
    first_in, first_go = threading.Event(), threading.Event()
    seen_after_second: list[dict[str, Any]] = []

    def first() -> None:
        first_in.set()
        first_go.wait(10)
        seen_after_second.append(seen_from_inside())

    runner = threading.Thread(target=lambda: work.run(first))
    runner.start()
    assert first_in.wait(10)
    work.run(lambda: None)
    first_go.set()
    runner.join(10)
    # The second ended first: the first still ran with the collector held, the interval short.
    assert seen_after_second[0]["collector_on"] is False
    assert seen_after_second[0]["switch_interval"] <= LONG_WORK_SWITCH_INTERVAL
    assert sys.getswitchinterval() == interval and work.running == 0


def test_an_error_in_long_work_is_raised_to_the_caller_and_the_hold_ends() -> None:
    work = LongWork()
    interval = sys.getswitchinterval()
    mistake = ValueError("a bad game file")

    def fail() -> None:
        raise mistake

    with pytest.raises(ValueError) as caught:
        work.run(fail)
    assert caught.value is mistake
    assert work.running == 0 and sys.getswitchinterval() == interval


@pytest.mark.parametrize("seed", range(4))
def test_a_long_text_is_put_in_normal_form_a_piece_at_a_time_as_in_one(seed: int) -> None:
    """Pieces end before an ASCII character: accents and Hangul cut anywhere else would
    compose differently."""
    rng = random.Random(seed)
    alphabet = 'aeiouAZ ;,"\n' + "\u0301\u0300\u0308\u0327\u0338" + "éÅ\u1100\u1161\u11a8"
    text = "".join(rng.choice(alphabet) for _ in range(300_000))
    assert nfc(text) == unicodedata.normalize("NFC", text)
    # a text with no ASCII at all is one piece
    accents = "\u00e9\u0308" * 70_000
    assert nfc(accents) == unicodedata.normalize("NFC", accents)


def test_long_work_stands_aside_while_the_table_works_and_not_forever() -> None:
    work = LongWork()
    order: list[str] = []
    inside = threading.Event()

    def press() -> None:
        with work.urgent():
            inside.set()
            time.sleep(0.02)
            order.append("press answered")

    def long_piece() -> None:
        assert inside.wait(10)
        work.stand_aside()  # the press is under way: wait for it
        order.append("next piece")

    presser = threading.Thread(target=press)
    presser.start()
    work.run(long_piece)
    presser.join(10)
    assert order == ["press answered", "next piece"]
    assert work.table_busy == 0
    # A table that never stops working does not stop the long work for good.
    with work.urgent():
        waited = time.monotonic()
        work.run(work.stand_aside)
        assert time.monotonic() - waited >= URGENT_WAIT_S
        assert work.table_busy == 1
        # long work's own calls are never the table's: it would wait for itself
        assert work.run(lambda: (work.urgent().__enter__(), work.table_busy)[1]) == 1


def test_the_hub_counts_a_short_action_and_an_input_as_the_tables_work_not_an_import() -> None:
    hub: Hub = make_hub()
    seen: dict[str, tuple[int, int | None]] = {}

    def handler(payload: dict[str, Any]) -> None:
        seen[payload["text"]] = (hub.long_work.table_busy, payload.get("prepared"))

    schema = {
        "type": "object",
        "properties": {"text": {"type": "string"}, "prepared": {"type": "integer"}},
    }
    hub.register_action("test.short", schema, handler, "score")
    hub.register_action(
        "test.long",
        schema,
        handler,
        "score",
        prepare=lambda p: {**p, "prepared": hub.long_work.table_busy},
    )
    with hub.running():
        hub.dispatch("test.short", {"text": "short"})
        hub.dispatch("test.long", {"text": "long"})
        assert hub.call(lambda: hub.long_work.table_busy).result(10) == 1  # any hub work
    # the short action: its dispatch and its handling on the hub thread
    assert seen["short"] == (2, None)
    # only the handling, once the long part (prepared as nobody's urgent work) is done
    assert seen["long"] == (1, 0)
    assert hub.long_work.table_busy == 0


def test_the_export_and_the_chart_go_through_the_game_as_long_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hub: Hub = make_hub()
    threads: list[str] = []
    for module, name in ((scoreview, "export_csv"), (chart, "totals_svg")):
        real = getattr(module, name)
        monkeypatch.setattr(
            module,
            name,
            lambda *a, real=real, **k: (
                threads.append(threading.current_thread().name) or real(*a, **k)
            ),
        )
    client = make_app(hub).test_client()
    with hub.running():
        assert client.get("/api/export.csv").status_code == 200
        assert client.get("/api/chart.svg").status_code == 200
    assert threads == ["long-work", "long-work"]


def test_only_lasting_work_is_frozen_out_of_later_collections() -> None:
    work = LongWork()
    before = gc.get_freeze_count()
    passing = work.run(lambda: [[] for _ in range(1000)])
    # (other tests' frozen objects may be freed meanwhile: the count may go down, not up)
    assert gc.get_freeze_count() < before + 1000
    stored = work.run(lambda: [[] for _ in range(1000)], lasting=True)
    assert gc.get_freeze_count() >= before + 1000
    assert len(passing) == len(stored) == 1000


def test_while_the_hub_runs_a_thread_waits_a_millisecond_at_most_for_the_interpreter() -> None:
    interval = sys.getswitchinterval()
    hub: Hub = make_hub()
    with hub.running():
        assert sys.getswitchinterval() == min(interval, TABLE_SWITCH_INTERVAL)
        # long work shortens it further, and gives back the hub's
        inside = hub.run_long(sys.getswitchinterval)
        assert inside == min(interval, LONG_WORK_SWITCH_INTERVAL)
        assert sys.getswitchinterval() == min(interval, TABLE_SWITCH_INTERVAL)
    assert sys.getswitchinterval() == interval

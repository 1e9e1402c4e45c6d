"""A background thread with its own event loop, where the core's work runs.

Retrieval and the extractive answerer are synchronous CPU work, and the OpenAI client keeps
connections bound to one event loop; so the whole core runs on one long-lived loop in one
thread, and the UI awaits it. ``run`` calls a blocking function there; ``stream`` iterates an
async generator there and hands its items to the caller's loop. Cancelling the caller cancels
the work on the core loop at its next await.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


class CoreLoop:
    def __init__(self, name: str = "assistant-core") -> None:
        self.name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    def start(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._thread = threading.Thread(target=self._main, name=self.name, daemon=True)
            self._thread.start()
            self._ready.wait()
        assert self._loop is not None
        return self._loop

    def _main(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    def stop(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            for task in asyncio.all_tasks(loop) if loop.is_running() else ():
                loop.call_soon_threadsafe(task.cancel)
            loop.call_soon_threadsafe(loop.stop)
        self._ready.clear()

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on the core thread, awaited from the caller's loop."""

        async def call() -> T:
            return fn(*args, **kwargs)

        future = asyncio.run_coroutine_threadsafe(call(), self.start())
        return await asyncio.wrap_future(future)

    async def run_async(self, factory: Callable[[], Awaitable[T]]) -> T:
        """Await ``factory()`` on the core loop (where the core's clients live)."""

        async def call() -> T:
            return await factory()

        future = asyncio.run_coroutine_threadsafe(call(), self.start())
        return await asyncio.wrap_future(future)

    async def stream(self, factory: Callable[[], AsyncIterator[T]]) -> AsyncIterator[T]:
        """Iterate ``factory()`` on the core loop; its items (and its error) arrive here."""
        here = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

        def put(item: tuple[str, Any]) -> None:
            # RuntimeError: the caller's loop has closed, nobody is listening
            with contextlib.suppress(RuntimeError):
                here.call_soon_threadsafe(queue.put_nowait, item)

        async def pump() -> None:
            try:
                async for item in factory():
                    put(("item", item))
            except asyncio.CancelledError:
                put(("end", None))
                raise
            except BaseException as exc:
                put(("error", exc))
            else:
                put(("end", None))

        future = asyncio.run_coroutine_threadsafe(pump(), self.start())
        try:
            while True:
                kind, value = await queue.get()
                if kind == "item":
                    yield value
                elif kind == "error":
                    raise value
                else:
                    return
        finally:
            future.cancel()

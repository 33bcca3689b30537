#!/usr/bin/env python3
"""A TCP proxy that is one slow link: every connection through it shares one download and one
upload rate, and each chunk waits out a one-way delay (half the round trip). It stands for a
phone's mobile link (Lighthouse's mobile profile: 1.6 Mbps down, 750 kbps up, 150 ms round
trip) or one classroom Wi-Fi shared by many phones, in front of score-server.

Usage: throttle.py --listen PORT --to HOST:PORT [--down BPS] [--up BPS] [--rtt MS]
(bits per second; stopped by its PID). Prints the bytes it passed each way when stopped, and
when sent SIGUSR1.
"""
import argparse
import asyncio
import collections
import signal
import time


class Link:
    """One direction of the link: one rate shared by every connection in turn (a chunk each,
    round robin, as flows share a real link), and a delay after it."""

    def __init__(self, bits_per_s, delay_s):
        self.rate = bits_per_s / 8.0
        self.delay = delay_s
        self.flows = []  # [deque of chunks (None: end), writer]
        self.turn = 0
        self.wake = asyncio.Event()
        self.bytes = 0

    def flow(self, writer):
        f = [collections.deque(), writer]
        self.flows.append(f)
        return f

    def put(self, f, data):
        f[0].append(data)
        self.wake.set()

    async def run(self):
        loop = asyncio.get_running_loop()
        while True:
            ready = [f for f in self.flows if f[0]]
            if not ready:
                self.wake.clear()
                await self.wake.wait()
                continue
            self.turn = (self.turn + 1) % len(ready)
            f = ready[self.turn]
            data = f[0].popleft()
            writer = f[1]
            if data is None:
                self.flows.remove(f)
                loop.call_later(self.delay, writer.close)
                continue
            await asyncio.sleep(len(data) / self.rate)
            self.bytes += len(data)
            loop.call_later(self.delay, writer.write, data)


async def pipe(reader, writer, link):
    f = link.flow(writer)
    try:
        while True:
            data = await reader.read(1460)
            if not data:
                break
            link.put(f, data)
    except (ConnectionError, asyncio.CancelledError):
        pass
    link.put(f, None)


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--listen", type=int, required=True)
    p.add_argument("--to", required=True)
    p.add_argument("--down", type=float, default=1_600_000)
    p.add_argument("--up", type=float, default=750_000)
    p.add_argument("--rtt", type=float, default=150)
    a = p.parse_args()
    host, port = a.to.rsplit(":", 1)
    down, up = Link(a.down, a.rtt / 2000), Link(a.up, a.rtt / 2000)

    async def serve(client_r, client_w):
        try:
            server_r, server_w = await asyncio.open_connection(host, int(port))
        except OSError:
            client_w.close()
            return
        try:
            await asyncio.gather(pipe(client_r, server_w, up), pipe(server_r, client_w, down))
        except asyncio.CancelledError:
            pass

    links = [asyncio.ensure_future(down.run()), asyncio.ensure_future(up.run())]
    server = await asyncio.start_server(serve, "127.0.0.1", a.listen)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for s in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(s, stop.set)
    # Asked how much has passed so far (a bench reads it between steps).
    loop.add_signal_handler(signal.SIGUSR1, lambda: print(f"throttle: {down.bytes} B down, {up.bytes} B up", flush=True))
    async with server:
        await stop.wait()
    for t in links:
        t.cancel()
    print(f"throttle: {down.bytes} B down, {up.bytes} B up", flush=True)


asyncio.run(main())

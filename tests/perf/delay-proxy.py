#!/usr/bin/env python3
"""A TCP proxy that holds every byte for a fixed time in each direction, standing in for a network
between a node and its Redis. Order is kept and throughput is not limited: each chunk read is written
once its time has come. Usage: delay-proxy.py LISTEN_PORT TARGET_PORT DELAY_MS"""

import asyncio
import sys
import time


async def carry(reader, writer, delay):
    queue = asyncio.Queue()

    async def later():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        writer.close()

    sender = asyncio.create_task(later())
    try:
        while data := await reader.read(65536):
            queue.put_nowait((time.monotonic() + delay, data))
    finally:
        queue.put_nowait((0, None))
        await sender


async def main(listen, target, delay):
    async def serve(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            carry(client_reader, server_writer, delay),
            carry(server_reader, client_writer, delay),
            return_exceptions=True,
        )

    server = await asyncio.start_server(serve, "127.0.0.1", listen)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000))

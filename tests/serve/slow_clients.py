#!/usr/bin/python3
# slow_clients.py -- the slow and idle clients of test_serve_limits.sh,
# against a server on 127.0.0.1:PORT started with --connection-timeout
# TIMEOUT (seconds).
#   drip PORT TIMEOUT N: N clients each announce a body of 400 bytes and
#     send one byte every 0.2 s; meanwhile one client asks /v2/translate
#     every 0.5 s on fresh connections. Prints "closed C in S s, every
#     other request answered, the slowest in M s": C drips closed, the
#     last after S seconds (rounded up), each other request answered 200
#     with its translation (else "A of B other requests"), the slowest
#     in M seconds (rounded up).
#   idle PORT TIMEOUT N: N connections that send nothing; then one
#     request on a new connection. Prints "answered STATUS in M s, closed
#     C in S s" (the idle ones closed, the last after S seconds).
import http.client
import math
import select
import socket
import sys
import threading
import time


def closed(s):
    """1 when the server has closed s (or reset it)."""
    try:
        r, _, _ = select.select([s], [], [], 0)
        return bool(r) and s.recv(4096) == b""
    except OSError:
        return True


def ask(port):
    """(status, seconds) of one DeepL request on a new connection."""
    t0 = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("POST", "/v2/translate", "text=other&target_lang=ES",
                  {"Content-Type": "application/x-www-form-urlencoded"})
        r = c.getresponse()
        body = r.read()
        c.close()
        ok = r.status == 200 and b'"text":"other"' in body
        return (200 if ok else r.status), time.monotonic() - t0
    except OSError:
        return 0, time.monotonic() - t0


def drip(port, timeout, n):
    head = (b"POST /v2/translate HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: 400\r\n\r\ntarget_lang=ES&text=")
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(head)
        socks.append(s)
    t0 = time.monotonic()
    ends = [None] * n
    answers = []
    stop = threading.Event()

    def others():
        while not stop.is_set():
            answers.append(ask(port))
            stop.wait(0.5)

    th = threading.Thread(target=others)
    th.start()
    while time.monotonic() - t0 < timeout + 8 and None in ends:
        for i, s in enumerate(socks):
            if ends[i] is not None:
                continue
            try:
                s.send(b"a")
            except OSError:
                ends[i] = time.monotonic() - t0
                continue
            if closed(s):
                ends[i] = time.monotonic() - t0
        time.sleep(0.2)
    stop.set()
    th.join()
    done = [e for e in ends if e is not None]
    good = [a for a in answers if a[0] == 200]
    told = ("every other request" if len(good) == len(answers) >= 4 else
            "%d of %d other requests" % (len(good), len(answers)))
    print("closed %d in %d s, %s answered, the slowest in %d s" % (
        len(done), math.ceil(max(done)) if done else 0, told,
        math.ceil(max(a[1] for a in answers))))


def idle(port, timeout, n):
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
    t0 = time.monotonic()
    status, took = ask(port)
    ends = [None] * n
    while time.monotonic() - t0 < timeout + 8 and None in ends:
        for i, s in enumerate(socks):
            if ends[i] is None and closed(s):
                ends[i] = time.monotonic() - t0
        time.sleep(0.1)
    done = [e for e in ends if e is not None]
    print("answered %d in %d s, closed %d in %d s" % (
        status, math.ceil(took), len(done),
        math.ceil(max(done)) if done else 0))


if __name__ == "__main__":
    what, port, timeout, n = sys.argv[1], int(sys.argv[2]), \
        int(sys.argv[3]), int(sys.argv[4])
    (drip if what == "drip" else idle)(port, timeout, n)

#!/usr/bin/python3
# hostile_clients.py -- the clients of test_serve_hostile.sh,
# test_serve_long.sh and serve rounds 17 and 21, against a server on
# 127.0.0.1:PORT.
#   load PORT SECONDS N WANT: N well-behaved clients, each asking in a
#     loop for SECONDS (a new connection each time) GET /health and the
#     requests of the file WANT (lines "PATH<TAB>BODY<TAB>ANSWER": GET
#     when BODY is "-", else a form POST; ANSWER the exact answer, but
#     for a final new line).
#     Prints "answered A of B, E wrong, p99 S s" (S to 0.01 s).
#   headers PORT ADDR N SECONDS: N connections from ADDR that each send
#     one byte of a request's headers every 0.5 s, for at most SECONDS.
#     Prints "refused R, cut C, the last after S s, open O": R closed by
#     the server within 2 s of their connection, C closed later, the
#     last S s (rounded up) after its connection.
#   raw PORT: sends standard input as it is; prints the status code and
#     the body of the answer.
#   announce PORT PATH TYPE: a POST whose headers announce 100 MB, then
#     1 MB of it sent (as far as the server takes it); prints the status
#     code and the body of the answer.
#   held PORT N SIZE PATH TYPE: held_bodies below, then the count of each
#     status ("none": no answer yet), "429:26 none:4".
import http.client
import math
import select
import socket
import sys
import threading
import time


def ask(port, path, body):
    t0 = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        if body == "-":
            c.request("GET", path)
        else:
            c.request("POST", path, body.encode(), {
                "Content-Type": "application/x-www-form-urlencoded"})
        r = c.getresponse()
        got = r.read().decode("utf-8", "replace")
        c.close()
        return r.status, got.rstrip("\n"), time.monotonic() - t0
    except OSError as e:
        return 0, str(e), time.monotonic() - t0


def load(port, seconds, n, want_file):
    asks = [("/health", "-", None)]
    with open(want_file, encoding="utf-8") as f:
        for line in f:
            path, body, answer = line.rstrip("\n").split("\t")
            asks.append((path, body, answer))
    results = []
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def client(k):
        i = k
        while time.monotonic() < end:
            path, body, answer = asks[i % len(asks)]
            status, got, took = ask(port, path, body)
            ok = status == 200 and (answer is None or got == answer)
            with lock:
                results.append((ok, took, status, got[:120]))
            i += 1

    threads = [threading.Thread(target=client, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    times = sorted(r[1] for r in results)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0
    wrong = [r for r in results if not r[0]]
    print("answered %d of %d, %d wrong, p99 %.2f s" % (
        len(results) - len(wrong), len(results), len(wrong), p99))
    for r in wrong[:3]:
        print("#   wrong: %d %r" % (r[2], r[3]), file=sys.stderr)


def headers(port, addr, n, seconds):
    head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
    socks, ends, starts = [], [], []
    t0 = time.monotonic()
    for _ in range(n):
        s = socket.socket()
        s.bind((addr, 0))
        s.setblocking(True)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            ends.append(0.0)
            socks.append(None)
            starts.append(0.0)
            continue
        starts.append(time.monotonic())
        s.setblocking(False)
        socks.append(s)
        ends.append(None)
    sent = 0
    while time.monotonic() - t0 < seconds and None in ends:
        for i, s in enumerate(socks):
            if ends[i] is not None:
                continue
            try:
                try:
                    if s.recv(4096) == b"":
                        raise OSError("closed")
                except BlockingIOError:
                    pass
                s.send(head[sent % len(head):sent % len(head) + 1])
            except OSError:
                ends[i] = time.monotonic() - starts[i]
                s.close()
        sent += 1
        time.sleep(0.5)
    refused = sum(1 for e in ends if e is not None and e < 2)
    cut = [e for e in ends if e is not None and e >= 2]
    print("refused %d, cut %d, the last after %d s, open %d" % (
        refused, len(cut), math.ceil(max(cut)) if cut else 0,
        sum(1 for e in ends if e is None)))
    for s in socks:
        if s is not None:
            s.close()


def answer(s):
    """Prints the status code and the body of what s answers."""
    out = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            out += d
    except OSError:
        pass
    head, _, body = out.partition(b"\r\n\r\n")
    status = head.split(b" ")[1].decode() if b" " in head else "0"
    print(status + " " + body.decode("utf-8", "replace"))


def raw(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(sys.stdin.buffer.read())
    answer(s)


def announce(port, path, ctype):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\n"
               "Content-Length: %d\r\n\r\n" % (path, ctype, 100 << 20)
               ).encode())
    try:
        for _ in range(16):
            s.sendall(b"a" * 65536)
    except OSError:
        pass
    answer(s)


def held_bodies(port, n, size, path, ctype, wait, prefix=b"", fill=b"x"):
    """N connections that each POST to PATH a body of SIZE bytes (PREFIX,
    then FILL bytes), all but its last byte sent (unless an answer comes
    first); after WAIT s, what each was answered. Returns the sockets,
    still open, and the answers' bytes."""
    socks, answers = [], []
    chunk = fill * 65536
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\n"
                  b"Content-Length: %d\r\n\r\n"
                  % (path.encode(), ctype.encode(), size))
        sent = 0
        try:
            s.sendall(prefix)
            sent = len(prefix)
            while sent < size - 1 and not select.select([s], [], [], 0)[0]:
                k = min(len(chunk), size - 1 - sent)
                s.sendall(chunk[:k])
                sent += k
        except OSError:
            pass
        socks.append(s)
    time.sleep(wait)
    for s in socks:
        got = b""
        if select.select([s], [], [], 0)[0]:
            try:
                while True:
                    d = s.recv(65536)
                    if not d:
                        break
                    got += d
            except OSError:
                pass
        answers.append(got)
    return socks, answers


def status_of(got):
    return got.split(b" ")[1].decode() if got.startswith(b"HTTP/") else "none"


def counts(statuses):
    n = {}
    for st in statuses:
        n[st] = n.get(st, 0) + 1
    return " ".join("%s:%d" % kv for kv in sorted(n.items()))


if __name__ == "__main__":
    what, port = sys.argv[1], int(sys.argv[2])
    if what == "load":
        load(port, float(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif what == "headers":
        headers(port, sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    elif what == "announce":
        announce(port, sys.argv[3], sys.argv[4])
    elif what == "held":
        socks, got = held_bodies(port, int(sys.argv[3]), int(sys.argv[4]),
                                 sys.argv[5], sys.argv[6], 0.5)
        print(counts(status_of(g) for g in got))
        for s in socks:
            s.close()
    else:
        raw(port)

#!/usr/bin/python3
# serve_load.py -- the load client of make bench-serve: CLIENTS threads,
# each on one keep-alive connection, send the requests of a file (one a
# line: "plain<TAB>text" or "tags<TAB>text") to an Apertium APy
# /translate, REQUESTS in all, and count answers that are not a 200 with
# a translation as errors. Prints one line of NAME=VALUE: requests,
# errors, p50 and p99 latency (ms), requests/s, and with --pid the
# server's resident memory (KiB) after the first half and at the end.
# Python's standard library only.
import argparse
import http.client
import json
import random
import re
import threading
import time
import urllib.parse


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def make_texts(devs, out, n):
    """2n distinct texts of one to five sentences of the English dev sets: in the first n every third with its inline codes as HTML
    inline tags (g as b, x as br; bx and ex dropped), the others and the
    last n without."""
    lines = []
    for dev in devs:
        with open(dev, encoding="utf-8") as f:
            lines += [ln.strip() for ln in f if "&" not in ln and len(
                re.findall(r"[A-Za-z]{2,}", re.sub(r"<[^>]*>", "", ln))) >= 5]
    rng = random.Random(27)
    spans = [(start, k) for k in (1, 2, 3, 4, 5)
             for start in range(len(lines) - k)]
    rng.shuffle(spans)
    seen = set()
    with open(out, "w", encoding="utf-8") as f:
        for start, k in spans:
            if len(seen) == 2 * n:
                break
            text = " ".join(lines[start:start + k])
            tags = len(seen) < n and len(seen) % 3 == 0
            if tags:
                text = re.sub(r'<g id="[^"]*">', "<b>", text)
                text = text.replace("</g>", "</b>")
                text = re.sub(r"<x [^>]*/>", "<br/>", text)
            text = re.sub(r"<[^>]*>", lambda m: m.group(0) if tags and
                          m.group(0) in ("<b>", "</b>", "<br/>") else "",
                          text).strip()
            if tags and "<" not in text or text in seen:
                continue
            seen.add(text)
            f.write("%s\t%s\n" % ("tags" if tags else "plain", text))
    if len(seen) < 2 * n:
        raise SystemExit("serve_load.py: only %d distinct texts" % len(seen))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int)
    ap.add_argument("--texts", required=True)
    ap.add_argument("--make", metavar="DEV", nargs="+",
                    help="write the texts from the dev set and stop")
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--only", choices=["plain", "tags"])
    ap.add_argument("--pid", type=int)
    ap.add_argument("--errors", help="file for the first error answers")
    a = ap.parse_args()
    if a.make:
        make_texts(a.make, a.texts, a.requests)
        return

    texts = []
    with open(a.texts, encoding="utf-8") as f:
        for line in f:
            kind, _, text = line.rstrip("\n").partition("\t")
            if a.only is None or kind == a.only:
                texts.append(text)
    bodies = [urllib.parse.urlencode(
        {"langpair": "eng|spa", "markUnknown": "no", "q": t})
        for t in texts]

    lock = threading.Lock()
    state = {"next": 0, "done": 0, "errors": 0, "rss_half": 0}
    latencies = []
    error_lines = []
    half = a.requests // 2

    def worker():
        conn = None
        while True:
            with lock:
                i = state["next"]
                if i >= a.requests:
                    break
                state["next"] = i + 1
            body = bodies[i % len(bodies)]
            t0 = time.monotonic()
            ok, what = False, ""
            for attempt in (0, 1):  # a keep-alive connection the server closed
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection(
                            "127.0.0.1", a.port, timeout=60)
                    conn.request("POST", "/translate", body, {
                        "Content-Type": "application/x-www-form-urlencoded"})
                    r = conn.getresponse()
                    data = r.read()
                    j = json.loads(data)
                    ok = (r.status == 200 and j.get("responseStatus") == 200
                          and isinstance(j["responseData"]["translatedText"],
                                         str))
                    what = "%d %s" % (r.status, data[:200])
                    if r.getheader("Connection", "").lower() == "close":
                        conn.close()
                        conn = None
                    break
                except (http.client.RemoteDisconnected,
                        ConnectionResetError, BrokenPipeError) as e:
                    conn = None
                    what = repr(e)
                    if attempt == 1:
                        break
                except Exception as e:  # an answer that is not APy's
                    conn = None
                    what = repr(e)
                    break
            ms = (time.monotonic() - t0) * 1000.0
            with lock:
                latencies.append(ms)
                state["done"] += 1
                if not ok:
                    state["errors"] += 1
                    if len(error_lines) < 5:
                        error_lines.append(what)
                if state["done"] == half and a.pid:
                    state["rss_half"] = rss_kib(a.pid)
        if conn is not None:
            conn.close()

    start = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(a.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - start
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    out = ["requests=%d" % len(latencies), "errors=%d" % state["errors"],
           "p50_ms=%.1f" % pct(0.50), "p99_ms=%.1f" % pct(0.99),
           "rps=%.1f" % (len(latencies) / took), "seconds=%.1f" % took]
    if a.pid:
        out += ["rss_half_kib=%d" % state["rss_half"],
                "rss_end_kib=%d" % rss_kib(a.pid)]
    print(" ".join(out))
    if a.errors and error_lines:
        with open(a.errors, "w") as f:
            f.write("\n".join(error_lines) + "\n")


if __name__ == "__main__":
    main()

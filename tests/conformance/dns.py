"""A small DNS client for the conformance harness: builds queries, parses the Answer
section of responses (A, AAAA, CNAME; compression pointers), and keeps many UDP queries
in flight at once. Standard library only; talks to 127.0.0.1 only."""
import select
import socket
import struct
import time

QTYPE = {"A": 1, "AAAA": 28, "CNAME": 5, "SOA": 6}


def encode_name(name):
    out = b""
    for label in name.rstrip(".").split("."):
        if label:
            raw = label.encode()
            out += bytes([len(raw)]) + raw
    return out + b"\0"


def query(qid, name, qtype):
    header = struct.pack(">HHHHHH", qid, 0x0000, 1, 0, 0, 0)
    return header + encode_name(name) + struct.pack(">HH", QTYPE[qtype], 1)


def read_name(msg, off, depth=0):
    """Returns (text with final dot, offset after the name in place)."""
    labels = []
    end = None
    while True:
        if off >= len(msg) or depth > 64:
            raise ValueError("truncated name")
        n = msg[off]
        if n == 0:
            off += 1
            break
        if n & 0xC0 == 0xC0:
            ptr = ((n & 0x3F) << 8) | msg[off + 1]
            if end is None:
                end = off + 2
            off = ptr
            depth += 1
            continue
        raw = msg[off + 1:off + 1 + n]
        text = ""
        for b in raw:
            c = chr(b)
            if c in ".\\\"" or b <= 32 or b >= 127:
                text += "\\%03d" % b if (b <= 32 or b >= 127) else "\\" + c
            else:
                text += c
        labels.append(text)
        off += 1 + n
    return ".".join(labels) + ".", (end if end is not None else off)


def parse_response(msg):
    """Returns (id, rcode, [(type, ttl, value)]) for the Answer section."""
    qid, flags, qd, an, _ns, _ar = struct.unpack(">HHHHHH", msg[:12])
    off = 12
    for _ in range(qd):
        _, off = read_name(msg, off)
        off += 4
    rrs = []
    for _ in range(an):
        _, off = read_name(msg, off)
        rtype, _rclass, ttl, rdlen = struct.unpack(">HHIH", msg[off:off + 10])
        off += 10
        rdata = msg[off:off + rdlen]
        if rtype == 1:
            value = socket.inet_ntop(socket.AF_INET, rdata)
        elif rtype == 28:
            value = socket.inet_ntop(socket.AF_INET6, rdata)
        elif rtype == 5:
            value, _ = read_name(msg, off)
        else:
            value = rdata.hex()
        rrs.append((rtype, ttl, value))
        off += rdlen
    return qid, flags & 0xF, rrs


def sample(port, name, qtype, count, window=64, deadline=None, timeout=2.0):
    """Sends `count` queries (at most `window` in flight) and returns the list of parsed
    answers [(rcode, rrs)]. Lost queries are re-sent; every loop is bounded by `deadline`
    (time.monotonic()) and by a retry budget."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    s.connect(("127.0.0.1", port))
    s.setblocking(False)
    pending = {}
    results = []
    next_id = 1
    sent = 0
    retries = 0
    try:
        while len(results) < count:
            now = time.monotonic()
            if deadline is not None and now > deadline:
                raise TimeoutError("sampling %s/%s: out of time" % (name, qtype))
            while sent < count and len(pending) < window:
                qid = next_id & 0xFFFF
                next_id += 1
                if qid in pending:
                    break
                s.send(query(qid, name, qtype))
                pending[qid] = now
                sent += 1
            r, _, _ = select.select([s], [], [], 0.5)
            if r:
                while True:
                    try:
                        msg = s.recv(4096)
                    except BlockingIOError:
                        break
                    qid, rcode, rrs = parse_response(msg)
                    if qid in pending:
                        del pending[qid]
                        results.append((rcode, rrs))
            now = time.monotonic()
            for qid, t in list(pending.items()):
                if now - t > timeout:
                    retries += 1
                    if retries > max(100, count // 100):
                        raise TimeoutError("sampling %s/%s: too many lost queries" % (name, qtype))
                    del pending[qid]
                    sent -= 1
    finally:
        s.close()
    return results

#!/usr/bin/env python3
"""Time from didChange to publishDiagnostics of `synclint lsp` on a real project, and its memory.

    Benchmarks/lsp-latency.py SYNCLINT PROJECT FILE [EDITS]
    e.g. Benchmarks/lsp-latency.py .build/debug/synclint /work/apps/mastodon-ios \\
             /work/apps/mastodon-ios/Mastodon/Scene/Profile/ProfileViewController.swift 200

Opens PROJECT as the workspace folder and FILE in it, then makes EDITS edits one at a time (a
comment line inserted at the top, then removed, alternately, as incremental changes) and times each
from writing the didChange to reading the publishDiagnostics of that version. Prints the median and
95th percentile, the server's resident memory (VmRSS) after the workspace opened and after 1,000
more edits sent in one burst. A benchmark, not a test: it changes nothing on disk.
"""
import json, os, statistics, subprocess, sys, time

def frame(message):
    message["jsonrpc"] = "2.0"
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body

class Server:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sys.stderr)
        self.buffer = b""

    def send(self, message):
        self.process.stdin.write(frame(message))
        self.process.stdin.flush()

    def read(self):
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += os.read(self.process.stdout.fileno(), 1 << 16)
        header, rest = self.buffer.split(b"\r\n\r\n", 1)
        length = int([l for l in header.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
        while len(rest) < length:
            rest += os.read(self.process.stdout.fileno(), 1 << 16)
        self.buffer = rest[length:]
        return json.loads(rest[:length])

    def wait_diagnostics(self, uri, version):
        while True:
            message = self.read()
            params = message.get("params") or {}
            if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri \
                    and params.get("version") == version:
                return params["diagnostics"]

    def rss_mib(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

def main():
    synclint, project, path = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    edits = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    uri = "file://" + path
    text = open(path, encoding="utf-8").read()
    server = Server([synclint, "lsp"])
    started = time.monotonic()
    server.send({"id": 1, "method": "initialize", "params": {"processId": os.getpid(), "capabilities": {},
                 "workspaceFolders": [{"uri": "file://" + project, "name": "bench"}]}})
    while server.read().get("id") != 1:
        pass
    server.send({"method": "initialized", "params": {}})
    server.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "swift", "version": 1, "text": text}}})
    found = server.wait_diagnostics(uri, 1)
    print("workspace indexed and first diagnostics: %.2f s, %d findings in the file" % (time.monotonic() - started, len(found)))
    print("memory after opening the workspace: %.0f MiB" % server.rss_mib())
    version, times = 1, []
    line = "// synclint benchmark edit\n"
    for number in range(edits):
        version += 1
        if number % 2 == 0:
            change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": line}
        else:
            change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "text": ""}
        before = time.monotonic()
        server.send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version},
                     "contentChanges": [change]}})
        server.wait_diagnostics(uri, version)
        times.append((time.monotonic() - before) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * len(times))) - 1)]
    print("didChange to publishDiagnostics over %d edits: median %.0f ms, p95 %.0f ms, max %.0f ms"
          % (len(times), statistics.median(times), p95, times[-1]))
    burst = b""
    for number in range(1000):
        version += 1
        burst += frame({"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version},
                        "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                                            "text": " "}]}})
    before = time.monotonic()
    server.process.stdin.write(burst)
    server.process.stdin.flush()
    server.wait_diagnostics(uri, version)
    print("1,000 edits in one burst: last version's diagnostics after %.0f ms" % ((time.monotonic() - before) * 1000))
    print("memory after %d + 1,000 edits: %.0f MiB" % (edits, server.rss_mib()))
    server.send({"id": 2, "method": "shutdown"})
    while server.read().get("id") != 2:
        pass
    server.send({"method": "exit"})
    print("exit status:", server.process.wait(timeout=30))

if __name__ == "__main__":
    main()

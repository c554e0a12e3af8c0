# The wire itself, as no well-behaved client would speak it: bytes that are not UTF-8, frames that
# are not JSON, headers without a length, a request before anything was opened, an unknown
# method. The server answers each with the protocol's error and goes on serving; the end of its
# input without `exit` ends it with code 1, `shutdown` then `exit` with 0.
import json
import subprocess

from conftest import SHEAF, VAULT


def frame(body: bytes, length=None) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


def message(**fields) -> bytes:
    return frame(json.dumps(dict(fields, jsonrpc="2.0")).encode())


def replies(output: bytes) -> list:
    out = []
    while output:
        header, _, rest = output.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        out.append(json.loads(rest[:length]))
        output = rest[length:]
    return out


def test_malformed_frames_get_errors_and_the_server_keeps_serving():
    stream = b"".join([
        message(id=1, method="initialize", params={"capabilities": {}, "rootUri": VAULT.as_uri()}),
        frame(b'{"jsonrpc":"2.0","id":2,"method":"x","params":"\xff\xfe"}'),  # not UTF-8
        frame(b"not json at all"),
        b"Content-Length: many\r\n\r\n",
        message(id=3, method="textDocument/completion",
                params={"textDocument": {"uri": (VAULT / "Never opened.md").as_uri()}, "position": {"line": 0, "character": 0}}),
        message(id="four", method="workspace/noSuchThing", params={}),
        message(id=5, method="workspace/symbol", params={"query": "backup\u001b[31m"}),
        message(id=6, method="shutdown"),
        message(method="exit"),
    ])
    run = subprocess.run([SHEAF, "lsp", "--vault", str(VAULT)], input=stream, capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr.decode()
    got = replies(run.stdout)
    by_id = {r.get("id"): r for r in got}
    assert "capabilities" in by_id[1]["result"]
    assert [r["error"]["code"] for r in got if r.get("id") is None] == [-32700, -32700, -32700]
    assert by_id[3]["result"] == {"isIncomplete": False, "items": []}  # nothing open: nothing, no error
    assert by_id["four"]["error"]["code"] == -32601
    assert by_id[5]["result"] == []  # an escape sequence matches no title
    assert by_id[6]["result"] is None


def test_the_end_of_input_without_exit_ends_the_server_with_code_1():
    run = subprocess.run([SHEAF, "lsp", "--vault", str(VAULT)],
                         input=message(id=1, method="initialize", params={"capabilities": {}}), capture_output=True, timeout=60)
    assert run.returncode == 1
    assert replies(run.stdout)[0]["id"] == 1

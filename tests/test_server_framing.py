"""The language server's framing is bounded: a `Content-Length` no client could send
never kills `delta-lint server` with a traceback, and a message over the limit is
dropped with an error in the client's log while the server keeps serving."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("pygls")

from delta_lint.server import MAX_MESSAGE_BYTES  # noqa: E402

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}


def _framed(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _serve(data: bytes) -> tuple[int, list[dict], str]:
    """Run the server on `data` as its whole input; its exit code, the messages it
    wrote and its standard error."""
    done = subprocess.run(
        [sys.executable, "-m", "delta_lint", "server"],
        input=data,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    messages, out = [], done.stdout
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        messages.append(json.loads(rest[:length]))
        out = rest[length:]
    return done.returncode, messages, done.stderr.decode(errors="replace")


@pytest.mark.parametrize(
    "header",
    [
        b"Content-Length: 99999999999999999999\r\n\r\n",  # more than an index holds (OverflowError)
        b"Content-Length: 999999999999\r\n\r\n{}",  # a terabyte (MemoryError)
    ],
)
def test_a_huge_content_length_ends_quietly_at_the_end_of_input(header):
    code, _, err = _serve(header + _framed(INITIALIZE))
    assert code == 0 and "Traceback" not in err, err


def test_a_message_over_the_limit_is_dropped_with_an_error_and_the_server_keeps_serving():
    oversized = b"Content-Length: %d\r\n\r\n" % (MAX_MESSAGE_BYTES + 1) + b" " * (MAX_MESSAGE_BYTES + 1)
    code, messages, err = _serve(oversized + _framed(INITIALIZE))
    assert code == 0 and "Traceback" not in err, err
    logged = [m["params"] for m in messages if m.get("method") == "window/logMessage"]
    assert logged and logged[0]["type"] == 1 and "dropped a message" in logged[0]["message"]
    assert [m["result"]["serverInfo"]["name"] for m in messages if m.get("id") == 1] == ["delta-lint"]


def test_a_header_line_of_9000_digits_is_no_header_and_the_next_message_is_answered():
    code, messages, err = _serve(b"Content-Length: " + b"9" * 9000 + b"\r\n\r\n" + _framed(INITIALIZE))
    assert code == 0 and "Traceback" not in err, err
    assert [m.get("id") for m in messages] == [1]


def test_a_message_at_the_limit_is_still_read():
    body = json.dumps(INITIALIZE).encode()
    code, messages, _ = _serve(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert code == 0 and [m.get("id") for m in messages] == [1]
    assert not [m for m in messages if m.get("method") == "window/logMessage"]

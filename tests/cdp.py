"""A small client of the Chrome DevTools protocol over ``--remote-debugging-pipe``
(commands on the browser's fd 3, answers and events on its fd 4, each a JSON
message ended by a NUL byte): enough to load a page in headless Chromium,
press keys, click, evaluate script and collect the console's errors, with
no dependency beyond the standard library."""
from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any


def chromium() -> str | None:
    """The Chromium to run (Debian's package ``chromium``), or ``None``."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


class ProtocolError(Exception):
    pass


class Browser:
    """Headless Chromium with one page (a target attached in flat mode)."""

    def __init__(self, executable: str, *, width: int = 1200, height: int = 900, timeout: float = 30) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="mancala-cdp-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # The browser's ends above fd 9 in the child first, so that putting
        # them at 3 and 4 cannot overwrite one with the other.
        to_browser_r, from_browser_w = (self._above_nine(to_browser_r), self._above_nine(from_browser_w))

        def at_three_and_four() -> None:  # (in the child; dup2 makes them inheritable)
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        args = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--hide-scrollbars", "--force-device-scale-factor=1",
                f"--window-size={width},{height}", f"--user-data-dir={self.profile}",
                "--remote-debugging-pipe", "about:blank"]
        # close_fds=False keeps 3 and 4 (Python's own fds are not inheritable: they close at exec).
        self.process = subprocess.Popen(
            args, close_fds=False, preexec_fn=at_three_and_four,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.page(f"{domain}.enable")

    @staticmethod
    def _above_nine(fd: int) -> int:
        high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        return high

    # -- messages ----------------------------------------------------------------------
    def _send(self, method: str, params: dict, session: str | None) -> int:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return self._next

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise ProtocolError("Chromium closed the pipe")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def call(self, method: str, *, session: str | None = None, **params: Any) -> dict:
        """Send a command and wait for its answer (keeping the events on the way)."""
        wanted = self._send(method, params, session)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise ProtocolError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def page(self, method: str, **params: Any) -> dict:
        return self.call(method, session=self.session, **params)

    def wait_for(self, method: str) -> dict:
        """The first event ``method`` not yet seen (waiting for it)."""
        deadline = time.monotonic() + self.timeout
        for k, event in enumerate(self.events):
            if event["method"] == method:
                return self.events.pop(k)
        while True:
            message = self._receive(deadline)
            if message.get("method") == method:
                return message
            if "method" in message:
                self.events.append(message)

    # -- what the tests do ------------------------------------------------------------------
    def load(self, path: Path) -> None:
        self.page("Page.navigate", url=path.resolve().as_uri())
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        result = self.page("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise ProtocolError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def press(self, key: str, code: int, text: str | None = None) -> None:
        """A key pressed and let go (``text``: what it types, as Enter's ``"\\r"``)."""
        down: dict[str, Any] = {"type": "rawKeyDown"} if text is None else {"type": "keyDown", "text": text}
        for params in (down, {"type": "keyUp"}):
            self.page("Input.dispatchKeyEvent", key=key, code=key, windowsVirtualKeyCode=code,
                      nativeVirtualKeyCode=code, **params)

    def click(self, selector: str) -> None:
        """A real mouse click at the middle of the element ``selector`` names."""
        box = self.evaluate(f"(function () {{ var e = document.querySelector({json.dumps(selector)});"
                            " e.scrollIntoView({block: 'center'}); var r = e.getBoundingClientRect();"
                            " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.page("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def viewport(self, width: int, height: int) -> None:
        """The page's viewport (CSS pixels, a device pixel each) from now on."""
        self.page("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False)

    def screenshot(self, path: Path) -> None:
        """What the viewport shows, as a PNG file."""
        import base64

        path.write_bytes(base64.b64decode(self.page("Page.captureScreenshot", format="png")["data"]))

    def errors(self) -> list[str]:
        """What the console showed as errors, and uncaught exceptions, so far."""
        self.evaluate("0")  # (the events sent before its answer are in)
        found = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(f"exception: {params['exceptionDetails']}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
        return found

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (ProtocolError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

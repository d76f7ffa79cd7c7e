"""An ASGI layer around a demo server (`DemoServer(wrap=seen.wrap)`) that records the path of every request."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class PathsSeen:
    """The paths a demo server was asked for, in order."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """`app` with every HTTP request's path recorded first."""

        async def recording(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http":
                self.paths.append(scope["path"])
            await app(scope, receive, send)

        return recording

    def ending(self, suffix: str) -> list[str]:
        """The paths asked for that end with `suffix`."""
        return [path for path in self.paths if path.endswith(suffix)]

"""Serves dist/ for the end-to-end tests: 127.0.0.1 only, application/wasm, optional sub-path.

usage: python3 tests/e2e/serve.py --port PORT --dir dist [--prefix /games/score/]
"""
import argparse
import functools
import http.server


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--dir", default="dist")
    ap.add_argument("--prefix", default="/")
    args = ap.parse_args()
    prefix = "/" + args.prefix.strip("/") + "/" if args.prefix.strip("/") else "/"

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

        def translate_path(self, path):
            if not path.startswith(prefix):
                return "/nonexistent"
            return super().translate_path("/" + path[len(prefix):])

        def log_message(self, *a):
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass  # a browser that drops a connection early is not an error here

    handler = functools.partial(Handler, directory=args.dir)
    Server(("127.0.0.1", args.port), handler).serve_forever()


if __name__ == "__main__":
    main()

"""Trunk post-build hook: make dist/ an offline, CSP-strict PWA.

0. First, each module's JS glue and wasm lose what wasm-bindgen writes that no page runs
   (scripts/slim_bindings.py: the digits in every import's name, and wasm-streams' unused
   classes), the wasm of a release build is optimised for size (wasm-opt -Oz, once: Trunk
   doesn't), and the glue is minified (esbuild): 8 KB of the first load's gzip.
1. Replaces Trunk's inline loader <script type="module"> and its preloads of the app with
   the page's boot script, inline before the stylesheet (scripts/boot.template.js: what
   starts the page, its files asked for at once, and started once the page is read: a
   room's module alone on a room's link, the student's on an invite and the whole one on a
   host's link; the app elsewhere).
2. Adds the Content-Security-Policy <meta>: only 'self', plus 'wasm-unsafe-eval' and the
   boot script's hash (no 'unsafe-inline').
3. Gives the build an id (from its files' names and contents) and writes it where the page
   and the solver's worker tell it: `<meta name="score-build">` in index.html, and
   `self.SCORE_BUILD` in the worker's loader, which also loads the worker's (unhashed) files
   as `?v=<id>`, so a worker is of one build throughout. The page refuses a worker of another
   build (src/solver.rs). The same for the modules fetched on demand (tools, class room):
   each boot script, which the page asks for as `?v=<id>`, gets `const BUILD = "<id>"` and
   loads its module's files as `?v=<id>`; it starts nothing on a page of another build.
4. Writes sw.js with the precache list of every file of this build (but the student's class
   room module, `NOT_PRECACHED`) and a version derived from their contents, so a new build
   is a new service worker.
5. Writes each language's catalog, `crates/i18n/locales/<code>.toml`, as
   `i18n/<code>.json` (English is compiled into the page): entries `key` or `key.form`
   mapped to their words. They are not precached: the page fetches the language a player
   chooses, and the service worker keeps it (and, on an update, the new build's copy).
6. Writes each module's boot script (`MODULES`) from scripts/module-boot.template.js.
   Minifies register-sw.js and the boot script (esbuild), and drops the comment lines of
   sw.js and the module boot scripts, and the comments and blank lines of index.html: they
   are for who reads the source, and the first load carries every byte of them.
7. Writes the stylesheet without its comments and the spaces nobody reads (strings kept as
   they are), and its `integrity` in index.html afresh: the first load carries every byte.
   Each file Trunk named by a hash (the app's script and wasm, the stylesheet) is named
   again by a hash of its bytes as shipped (`name_by_content`): a name never stands for two
   contents, which a browser's year-long cache of it would mix.
8. Precompresses every text and wasm file: `name.gz` (zopfli's gzip) and `name.br` (brotli -q 11)
   beside it, for hosts and servers that serve precompressed files. They are not in the
   precache list: the browser caches what it was served, decompressed.

Steps 0 and 8 are most of its time (wasm-opt and zopfli on five wasm files), and a build where
one module changed gives the others byte for byte as before: their results are kept in
target/postbuild-cache/, by the SHA-256 of what went in and of the tools (`Cache`).

Runs in $TRUNK_STAGING_DIR (or the folder given as its argument).
"""
import base64
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

import slim_bindings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The solver's worker: its loader (the one URL the page knows) and the files it loads.
LOADER = "score-worker_loader.js"
WORKER_FILES = ("score-worker.js", "score-worker_bg.wasm")
# The modules fetched on demand: each boot script (the one URL the page knows, as
# `?v=<build>`) and the files it loads.
MODULES = {
    "tools-boot.js": ("score-tools.js", "score-tools_bg.wasm"),
    "room-boot.js": ("score-room.js", "score-room_bg.wasm"),
    "join-boot.js": ("score-join.js", "score-join_bg.wasm"),
}
# Not precached: the student's class room module, which only a room's invite starts, and only
# online (a room needs its server). Offline, an invite's page falls back to the app, whose
# Class room view is precached and says there is no server. Precaching it would add its
# ~300 KB to every device's offline copy, and to a classroom's link after its students sit.
NOT_PRECACHED = ("join-boot.js", "score-join.js", "score-join_bg.wasm")
# What each module is, in its boot script's console line when it fails to start.
MODULE_WHAT = {
    "tools-boot.js": "the tools module",
    "room-boot.js": "the class room module",
    "join-boot.js": "the student's class room module",
}
# Where a boot script holds its build: `const BUILD = "<id>";` and `"./<file>?v=<id>"`.
BOOT_BUILD = re.compile(r'const BUILD = "[0-9a-f]*";')
VERSIONED = re.compile(r'\?v=[0-9a-f]*"')

# Scripts copied from static/ as they are written: they are minified (esbuild).
MINIFIED = ("register-sw.js",)

COMPRESSIBLE = (".wasm", ".js", ".css", ".html", ".webmanifest", ".svg", ".json")

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'"
)


class Cache:
    """Results of the slow steps kept by what went in: a result is stored under the SHA-256 of
    its inputs and of everything that makes it (this script, slim_bindings.py, the npm tools'
    locked versions, brotli's and zopfli's), so a change to any of them is a miss. Each result
    is written to a temporary name and renamed: a build stopped halfway leaves no half file.
    A result unused for a day is removed at the end of a build, and one that doesn't read back as
    written is not used."""

    FOLDER = os.path.join(ROOT, "target", "postbuild-cache")
    KEEP_S = 24 * 3600

    def __init__(self):
        h = hashlib.sha256()
        for name in ("scripts/postbuild.py", "scripts/slim_bindings.py", "package-lock.json"):
            try:
                h.update(open(os.path.join(ROOT, name), "rb").read())
            except OSError:
                h.update(b"absent " + name.encode())
        try:
            from importlib.metadata import version

            zopfli = version("zopfli")
        except Exception:
            zopfli = ""
        h.update(("zopfli %s" % zopfli).encode())
        for name in ("brotli", "wasm-opt", "esbuild"):
            found = find_tool(name)
            said = subprocess.run([found, "--version"], capture_output=True, text=True).stdout if found else ""
            h.update(("%s %s %s" % (name, found, said.strip())).encode())
        self.tools = h.hexdigest()

    def key(self, *parts):
        h = hashlib.sha256(self.tools.encode())
        for part in parts:
            h.update(len(part).to_bytes(8, "little"))
            h.update(part)
        return h.hexdigest()

    def get(self, key, name):
        """The bytes kept as `name` under `key`, or None (none kept, or not the bytes that were
        written: each entry starts with its bytes' SHA-256)."""
        path = os.path.join(self.FOLDER, key[:2], key + "." + name)
        try:
            kept = read_bytes(path)
        except OSError:
            return None
        data = kept[32:]
        if hashlib.sha256(data).digest() != kept[:32]:
            return None
        try:
            os.utime(path)
        except OSError:
            pass
        return data

    def put(self, key, name, data):
        folder = os.path.join(self.FOLDER, key[:2])
        path = os.path.join(folder, key + "." + name)
        temporary = None
        try:
            os.makedirs(folder, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(handle, "wb") as f:
                f.write(hashlib.sha256(data).digest() + data)
            os.replace(temporary, path)
        except OSError as e:
            print("postbuild: not kept in %s: %s" % (self.FOLDER, e))
            if temporary:
                try:
                    os.remove(temporary)
                except OSError:
                    pass

    def prune(self):
        now = time.time()
        for dirpath, _, names in os.walk(self.FOLDER):
            for n in names:
                path = os.path.join(dirpath, n)
                try:
                    if now - os.path.getmtime(path) > self.KEEP_S:
                        os.remove(path)
                except OSError:
                    pass


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ["TRUNK_STAGING_DIR"]
    html_path = os.path.join(root, "index.html")
    html = open(html_path, encoding="utf-8").read()

    boot = None
    m = re.search(r'<script type="module"[^>]*>(.*?)</script>', html, re.S)
    app = app_files(m.group(1)) if m and m.group(1).strip() else None
    cache = Cache()
    slim_modules(root, ([app] if app else []) + [WORKER_FILES] + list(MODULES.values()), cache)
    if app:
        js, html = name_by_content(root, app[0], html)
        wasm, html = name_by_content(root, app[1], html)
        app = (js, wasm)
        boot, html = boot_script(app, html, root)
        m = re.search(r'<script type="module"[^>]*>(.*?)</script>', html, re.S)
        html = html[: m.start()] + html[m.end():]

    write_module_boots(root)
    for name in MINIFIED:
        path = os.path.join(root, name)
        if os.path.exists(path):
            text = minify_js(open(path, encoding="utf-8").read())
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    write_catalogs(root)
    html = shrink_stylesheets(root, html)
    build = build_id(root)
    meta = '<meta name="score-build" content="%s" />' % build
    if re.search(r'<meta name="score-build"[^>]*>', html):
        html = re.sub(r'<meta name="score-build"[^>]*>', meta, html, count=1)
    else:
        html = html.replace("<meta charset=\"utf-8\" />", "<meta charset=\"utf-8\" />\n    " + meta, 1)
    if meta not in html:
        sys.exit("postbuild: index.html has no <meta charset=\"utf-8\" /> to write the build's id after")
    versioned = stamp_worker(root, build) + stamp_modules(root, build)

    # Its comments and the blank lines Trunk leaves where it took its links out: for who
    # reads index.html, and every first load carries them.
    html = re.sub(r"\n\s*\n", "\n", re.sub(r"<!--.*?-->", "", html, flags=re.S))
    csp = CSP
    if boot is not None:
        # Inline before the stylesheet (which a script after it would wait for): what starts
        # the page has its files asked for a round trip sooner than a script file of its own
        # could ask. It starts it once the page is read, after register-sw.js (deferred),
        # which listens for the start. (Before register-sw.js, the app could start while that
        # script still downloaded, and its "started" event went unheard: the offline copy then
        # waited its half minute.) It needs the build's id above it, and its hash in the policy.
        at = html.index("<link rel=\"stylesheet\"")
        if html.index(meta) > at:
            sys.exit("postbuild: the build's id must come before the stylesheet in index.html")
        html = html[:at] + "<script>%s</script>\n    " % boot + html[at:]
        digest = base64.b64encode(hashlib.sha256(boot.encode()).digest()).decode()
        csp = csp.replace("script-src 'self'", "script-src 'self' 'sha256-%s'" % digest)
    if "Content-Security-Policy" not in html:
        meta = '<meta http-equiv="Content-Security-Policy" content="%s" />' % csp
        html = html.replace("<meta charset=\"utf-8\" />", "<meta charset=\"utf-8\" />\n    " + meta, 1)
        if "Content-Security-Policy" not in html:
            html = html.replace("<head>", "<head>" + meta, 1)
    with open(html_path, "w", encoding="utf-8") as f:
        f.write(html)

    files = []
    digest = hashlib.sha256()
    for dirpath, _, names in os.walk(root):
        for n in sorted(names):
            path = os.path.join(dirpath, n)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if rel == "sw.js" or rel.endswith((".gz", ".br")):
                continue
            digest.update(rel.encode())
            digest.update(open(path, "rb").read())
            if rel.startswith("i18n/") or rel in NOT_PRECACHED:
                continue
            files.append(rel)
    files.sort()
    version = digest.hexdigest()[:16]
    template = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "sw.template.js"), encoding="utf-8").read()
    urls = ["./"] + ["./" + f + ("?v=" + build if f in versioned else "") for f in files]
    sw = uncomment(template).replace("__VERSION__", json.dumps(version)).replace("__BUILD__", json.dumps(build)).replace("__FILES__", json.dumps(urls))
    with open(os.path.join(root, "sw.js"), "w", encoding="utf-8") as f:
        f.write(sw)
    print("postbuild: %d files precached, version %s, build %s" % (len(files) + 1, version, build))
    precompress(root, cache)
    cache.prune()


LOCALES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "i18n", "locales")


def write_catalogs(root):
    """Each language but English as `i18n/<code>.json`: `{"key": "words", "key.one": "…"}`."""
    out = os.path.join(root, "i18n")
    os.makedirs(out, exist_ok=True)
    count = 0
    for name in sorted(os.listdir(LOCALES)):
        code, ext = os.path.splitext(name)
        if ext != ".toml" or code == "en":
            continue
        with open(os.path.join(LOCALES, name), "rb") as f:
            table = tomllib.load(f)
        entries = {}
        for key, value in table.items():
            if isinstance(value, dict):
                for form, words in value.items():
                    entries["%s.%s" % (key, form)] = words
            else:
                entries[key] = value
        with open(os.path.join(out, code + ".json"), "w", encoding="utf-8") as f:
            # Sorted, as the page keeps them: it reads them in one pass.
            json.dump(entries, f, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        count += 1
    print("postbuild: %d languages written to i18n/" % count)


def app_files(loader):
    """The app's script and wasm that Trunk's `loader` names."""
    js = re.search(r"from '\./([^']+\.js)'", loader)
    wasm = re.search(r"module_or_path: '\./([^']+\.wasm)'", loader)
    if not js or not wasm:
        sys.exit("postbuild: Trunk's loader names no app script and wasm (has it changed?)")
    return js.group(1), wasm.group(1)


def find_tool(name):
    """The project's own `name` (node_modules/.bin, as `npm ci` in scripts/setup.sh installs
    it), or the one on PATH, or None."""
    own = os.path.join(ROOT, "node_modules", ".bin", name)
    return own if os.access(own, os.X_OK) else shutil.which(name)


def tool(name):
    """`find_tool(name)`, which must be there."""
    found = find_tool(name)
    if not found:
        sys.exit("postbuild: %s is not installed (scripts/setup.sh installs it)" % name)
    return found


def slim_module(root, js, wasm, optimise, cache):
    """One module's glue and wasm slimmed (scripts/slim_bindings.py), and its glue minified;
    kept in `cache`, by the pair that went in."""
    js, wasm = os.path.join(root, js), os.path.join(root, wasm)
    key = cache.key(b"slim optimised" if optimise else b"slim", read_bytes(js), read_bytes(wasm))
    kept = [cache.get(key, n) for n in ("js", "wasm", "counts")]
    if None in kept:
        counts = "%d imports renamed, %d exports dropped" % _slim_module(js, wasm, optimise)
        for n, data in (("js", read_bytes(js)), ("wasm", read_bytes(wasm)), ("counts", counts.encode())):
            cache.put(key, n, data)
    else:
        write_bytes(js, kept[0])
        write_bytes(wasm, kept[1])
        counts = kept[2].decode() + " (kept from an earlier build)"
    return "%s: %s" % (os.path.basename(wasm), counts)


def _slim_module(js, wasm, optimise):
    """(imports renamed, exports dropped)"""
    try:
        renamed, dropped = slim_bindings.slim(js, wasm, tool("wasm-opt") if optimise else None)
    except ValueError as e:
        sys.exit("postbuild: %s (has wasm-bindgen changed?)" % e)
    # esbuild keeps an ES module's exports and a classic script's top-level names (the
    # worker's `wasm_bindgen`, which its loader calls).
    subprocess.run([tool("esbuild"), js, "--minify", "--log-level=warning", "--allow-overwrite", "--outfile=" + js], check=True)
    return renamed, dropped


def slim_modules(root, pairs, cache):
    """Each module slimmed; its wasm optimised for size in a release build only (as Trunk's
    own `data-wasm-opt` was: a debug build keeps its function names, and builds sooner)."""
    optimise = os.environ.get("TRUNK_PROFILE", "release") == "release"
    pairs = [p for p in pairs if os.path.exists(os.path.join(root, p[1]))]
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(os.sched_getaffinity(0))) as pool:
        for line in pool.map(lambda p: slim_module(root, *p, optimise, cache), pairs):
            print("postbuild: " + line)


# Trunk writes its 64-bit hash in hex without leading zeros: 16 digits, or fewer (1 build in 16
# has 15: `main-af4c96722adb203.css`).
HASHED = re.compile(r"^(?P<stem>.+)-[0-9a-f]{8,16}(?P<end>_bg\.wasm|\.[a-z]+)$")


def name_by_content(root, name, html):
    """Renames `name`, a file Trunk named by a hash (`score-app-<16 hex>.js`, or fewer), to the
    first 16 hex digits of the SHA-256 of its bytes as shipped, and `html`'s mentions of it. Trunk
    hashes what it was given (the wasm before wasm-bindgen, the stylesheet before this script
    minified it): a change here alone (to slim_bindings.py, esbuild, wasm-opt's options, the
    stylesheet's minifier) would ship other bytes under the name of the last release's file,
    which score-server and the README's hosts send as immutable for a year, so a browser that
    kept it (no service worker: a classroom's plain-http server) would start the old file
    against the new page's integrity, and not at all. Returns (new name, html)."""
    m = HASHED.match(name)
    if not m:
        sys.exit("postbuild: %s has no hash in its name (has Trunk changed?)" % name)
    digest = hashlib.sha256(open(os.path.join(root, name), "rb").read()).hexdigest()[:16]
    new = "%s-%s%s" % (m.group("stem"), digest, m.group("end"))
    if new != name:
        os.replace(os.path.join(root, name), os.path.join(root, new))
        html = html.replace(name, new)
    return new, html


def minify_js(text):
    """`text`, a script, minified by esbuild (its top-level names kept: a classic script's are
    the page's globals)."""
    done = subprocess.run([tool("esbuild"), "--minify", "--log-level=warning"], input=text, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("postbuild: esbuild: " + done.stderr)
    return done.stdout.strip()


def subresource_integrity(path):
    return "sha384-" + base64.b64encode(hashlib.sha384(open(path, "rb").read()).digest()).decode()


def boot_script(app, html, root):
    """The page's boot script, inline (scripts/boot.template.js), with the app's files (`app`:
    its script and wasm), and `html` without Trunk's preloads of them: a room's link starts
    the room's module instead, and the boot script asks for the files of what starts. Their
    integrity is of the files as they are now (Trunk's was of them before step 0)."""
    js, wasm = app
    integrity = {}
    for name in app:
        link = re.search(r'<link rel="(?:modulepreload|preload)" href="\./%s"[^>]*>' % re.escape(name), html)
        if not link:
            sys.exit("postbuild: index.html has no preload of %s (has Trunk changed?)" % name)
        integrity[name] = subresource_integrity(os.path.join(root, name))
        html = html[: link.start()] + html[link.end():]
    template = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "boot.template.js"), encoding="utf-8").read()
    body = (
        template.replace("__APP_JS__", "./" + js)
        .replace("__APP_JS_INTEGRITY__", integrity[js])
        .replace("__APP_WASM_INTEGRITY__", integrity[wasm])
        .replace("__APP_WASM__", "./" + wasm)
    )
    # Minified: every first load carries the page.
    return minify_js(body), html


def build_id(root):
    """The build's id: a digest of its files, but for those this script writes it into."""
    rels = []
    for dirpath, _, names in os.walk(root):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, "/")
            if rel not in ("sw.js", "index.html", LOADER) and not rel.endswith((".gz", ".br")):
                rels.append(rel)
    digest = hashlib.sha256()
    for rel in sorted(rels):
        data = open(os.path.join(root, rel), "rb").read()
        if rel in MODULES:
            # As copied from static/: the id a run before this one wrote is no part of it.
            data = unstamp_boot(data.decode("utf-8")).encode()
        digest.update(hashlib.sha256(rel.encode() + b"\0" + data).digest())
    return digest.hexdigest()[:16]


def minify_css(css):
    """`css` without comments and without the spaces around { } ; , > and after a colon (one space kept
    elsewhere, where a selector or a value may need it); quoted strings as they are."""
    out, i, n = [], 0, len(css)
    while i < n:
        c = css[i]
        if c in "\"'":
            j = i + 1
            while j < n and css[j] != c:
                j += 2 if css[j] == "\\" else 1
            out.append(css[i : j + 1])
            i = j + 1
        elif css.startswith("/*", i):
            j = css.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c.isspace():
            j = i
            while j < n and css[j].isspace():
                j += 1
            prev = out[-1][-1:] if out else ""
            nxt = css[j] if j < n else ""
            # (After a colon, a space is a declaration's: a selector's colon has none after it.)
            if prev and nxt and prev not in "{};,>:" and nxt not in "{};,>" and not css.startswith("/*", j):
                out.append(" ")
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out).replace(";}", "}")


def shrink_stylesheets(root, html):
    """Each stylesheet minified, named by its bytes (`name_by_content`), and its `integrity`
    in `html` written afresh."""
    for name in sorted(os.listdir(root)):
        if not name.endswith(".css"):
            continue
        path = os.path.join(root, name)
        text = minify_css(open(path, encoding="utf-8").read())
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        if HASHED.match(name):
            name, html = name_by_content(root, name, html)
            path = os.path.join(root, name)
        digest = subresource_integrity(path)
        html, n = re.subn(r'(href="\./%s" integrity=")[^"]*(")' % re.escape(name), r"\g<1>%s\g<2>" % digest, html)
        if n != 1 and ('integrity' in html and name in html):
            sys.exit("postbuild: no integrity for %s in index.html to write afresh" % name)
    return html


def uncomment(text):
    """`text` without its lines that are only a `//` comment (none of these scripts has one
    inside a string)."""
    return "".join(line for line in text.splitlines(keepends=True) if not line.lstrip().startswith("//"))


def unstamp_boot(text):
    return VERSIONED.sub('"', BOOT_BUILD.sub('const BUILD = "";', text))


def write_module_boots(root):
    """Each module's boot script (scripts/module-boot.template.js, without its comments), for
    each module this build has."""
    template = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "module-boot.template.js"), encoding="utf-8").read()
    for boot, (script, wasm) in MODULES.items():
        if not os.path.exists(os.path.join(root, wasm)):
            continue
        text = uncomment(template).replace("__NAME__", script[: -len(".js")]).replace("__WHAT__", MODULE_WHAT[boot])
        with open(os.path.join(root, boot), "w", encoding="utf-8") as f:
            f.write(text)


def stamp_modules(root, build):
    """Writes `build` into each module's boot script and has it load its files as `?v=<build>`.

    Returns the files now asked for so: the boot scripts and what they load."""
    versioned = ()
    for boot, names in MODULES.items():
        path = os.path.join(root, boot)
        if not os.path.exists(path):
            continue
        text = unstamp_boot(open(path, encoding="utf-8").read())
        if not BOOT_BUILD.search(text):
            sys.exit("postbuild: %s has no `const BUILD = \"\";` to write the build into" % boot)
        text = BOOT_BUILD.sub('const BUILD = "%s";' % build, text)
        script = names[0]
        if '"./%s"' % script not in text:
            sys.exit("postbuild: %s does not import ./%s" % (boot, script))
        text = text.replace('"./%s"' % script, '"./%s?v=%s"' % (script, build))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        versioned += (boot,) + names
    return versioned


def stamp_worker(root, build):
    """Writes `build` into the worker's loader and has it load its files as `?v=<build>`.

    Returns the worker's files it now loads so (none if this build has no worker)."""
    path = os.path.join(root, LOADER)
    if not os.path.exists(path):
        return ()
    text = open(path, encoding="utf-8").read()
    text = re.sub(r'^self\.SCORE_BUILD="[0-9a-f]*";', "", text)
    for name in WORKER_FILES:
        text = re.sub(r'"\./%s(\?v=[0-9a-f]*)?"' % re.escape(name), '"./%s?v=%s"' % (name, build), text)
        if '"./%s?v=%s"' % (name, build) not in text:
            sys.exit("postbuild: %s does not load ./%s (has Trunk's loader changed?)" % (LOADER, name))
    with open(path, "w", encoding="utf-8") as f:
        f.write('self.SCORE_BUILD="%s";' % build + text)
    return WORKER_FILES


def compress_one(path, cache):
    """`path.gz` (zopfli: a gzip stream about a twentieth smaller than gzip -9's, which every
    browser reads) and `path.br` (brotli -q 11) beside `path`; kept in `cache`, by its bytes."""
    data = read_bytes(path)
    key = cache.key(b"compress", data)
    kept = [cache.get(key, n) for n in ("gz", "br")]
    if None not in kept:
        write_bytes(path + ".gz", kept[0])
        write_bytes(path + ".br", kept[1])
        return True
    import zopfli.gzip

    write_bytes(path + ".gz", zopfli.gzip.compress(data, numiterations=15))
    subprocess.run(["brotli", "-q", "11", "-f", "-k", "-o", path + ".br", path], check=True)
    cache.put(key, "gz", read_bytes(path + ".gz"))
    cache.put(key, "br", read_bytes(path + ".br"))
    return False


def precompress(root, cache):
    if shutil.which("brotli") is None:
        sys.exit("postbuild: brotli is not installed (scripts/setup.sh installs it)")
    try:
        import zopfli.gzip  # noqa: F401 (each worker imports it)
    except ImportError:
        sys.exit("postbuild: zopfli is not installed (scripts/setup.sh installs PyPI's zopfli)")
    paths = [
        os.path.join(dirpath, n)
        for dirpath, _, names in os.walk(root)
        for n in names
        if n.endswith(COMPRESSIBLE)
    ]
    # Largest first, one per core: the wasm files take most of the time.
    paths.sort(key=os.path.getsize, reverse=True)
    with concurrent.futures.ProcessPoolExecutor(max_workers=len(os.sched_getaffinity(0))) as pool:
        kept = sum(pool.map(compress_one, paths, [cache] * len(paths)))
    print("postbuild: %d files precompressed (.gz and .br), %d kept from an earlier build" % (len(paths), kept))


if __name__ == "__main__":
    main()

"""Build the static site: the student edition (stage, execute, check for leaks) and the instructor edition.

The instructor edition is the same site with each chapter's solutions and hidden tests shown,
collapsed, for teaching staff. It is never executed itself: its pages take the outputs of the
student edition's executed chapters (answer cells are leaves, so nothing else differs).
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import io
import json
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import yaml

from autograder.pipeline.course import Course, is_answer_cell, is_test_cell, nbgrader_meta, read_notebook
from autograder.pipeline.progress import Progress
from autograder.pipeline.site.lab_markdown import myst_markdown
from autograder.pipeline.site.leaks import HIDDEN_TESTS_BEGIN, find_leaks, secret_lines
from autograder.pipeline.site.release import release

SKIP_TAGS = ("skip-execution",)
# Collapsed behind a "Show code cell source" toggle in the instructor edition.
COLLAPSED_TAGS = ("hide-input",)
BOOK_FILES = ("_config.yml", "_toc.yml")
# The site's Sphinx extensions (and their static/ files) shape every page.
SITE_EXTENSIONS = ("sphinx_site.py", "course_progress.py")
BOOK_DIRS = ("book", "_vendor")
# Vendored for the browser tests only: never part of the site.
TEST_ONLY_VENDOR = ("axe-core",)
DOWNLOADS = "downloads"
NOTEBOOKS_ZIP = "autograd-state-notebooks.zip"
# Zip entries carry this date so that an unchanged course stages byte-identical files.
ZIP_DATE = (2026, 1, 1, 0, 0, 0)
EDITIONS = ("student", "instructor")
# Packages (and modules) whose code draws what executed cells show: part of each chapter's cache key.
OUTPUT_PACKAGES = ("autograd_figures", "autograder/engine/tracebacks.py")
PACKAGE_ROOT = Path(__file__).resolve().parents[3]
# What the learner's wheel is made from: the checks, their keys, the figures.
KIT_SOURCES = ("autograder", "answer_key", "autograd_figures")
INSTRUCTOR_BANNER = (
    "Instructor edition: solutions and hidden tests are shown (collapsed). "
    "For teaching staff only; never publish it to learners."
)


def package_digest(root: Path = PACKAGE_ROOT) -> str:
    """A digest of the packages whose code shapes chapter outputs (figures, the page explorer)."""
    parts = [
        hashlib.sha256((root / name).read_bytes()).hexdigest() if (root / name).is_file() else tree_digest(root / name)
        for name in OUTPUT_PACKAGES
    ]
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]


def stage_chapter(student_edition: Path, target: Path, digest: str = "", source: Path | None = None) -> None:
    """Copy a student notebook into the book tree, its answer and test cells tagged to skip.

    The book shows answer and test cells as learners get them (unanswered) and executes every
    other cell; an answer cell is a leaf, so nothing else needs its names. A first, removed cell
    names ``digest``: the execution cache keys on code cells only, so a change to the packages
    that draw the outputs must re-execute the chapter. With the instructor ``source``, markdown
    cells take its MyST back (the student edition writes what only the site renders in plain
    Markdown for JupyterLab: :mod:`autograder.pipeline.site.lab_markdown`).
    """
    notebook = read_notebook(student_edition)
    if source is not None:
        myst_markdown(notebook, read_notebook(source))
    for cell in notebook.cells:
        if cell.cell_type == "code" and (is_answer_cell(cell) or is_test_cell(cell)):
            tags = cell.metadata.setdefault("tags", [])
            tags.extend(tag for tag in SKIP_TAGS if tag not in tags)
    if digest:
        marker = nbformat.v4.new_code_cell(f"# {', '.join(OUTPUT_PACKAGES)} sources: {digest}")
        marker.metadata["tags"] = ["remove-cell"]
        marker.id = "book-package-digest"
        notebook.cells.insert(0, marker)
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)


def tree_digest(folder: Path) -> str:
    """A digest of every file's path and bytes under ``folder`` ("" when it does not exist)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest() if folder.exists() else ""


def copy_book_dirs(course: Course, staged: Path) -> None:
    """Copy the book's folders into a staged tree, afresh, without the test-only vendored files."""
    for name in BOOK_DIRS:
        shutil.rmtree(staged / name, ignore_errors=True)
        shutil.copytree(course.root / name, staged / name, ignore=shutil.ignore_patterns(*TEST_ONLY_VENDOR))


def notebook_title(notebook: nbformat.NotebookNode, fallback: str) -> str:
    """The first level-one heading of a notebook's markdown, or ``fallback``."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


def toc_order(course: Course, names: list[str]) -> list[str]:
    """``names`` in the order ``_toc.yml`` lists their ``chapters/<name>`` pages, the unlisted last."""
    toc = yaml.safe_load((course.root / "_toc.yml").read_text())
    files = [entry["file"] for part in toc.get("parts", []) for entry in part.get("chapters", [])]
    listed = [f.removeprefix("chapters/") for f in files if f.startswith("chapters/")]
    return [n for n in listed if n in names] + sorted(n for n in names if n not in listed)


def _write_if_changed(path: Path, data: bytes) -> None:
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def stage_downloads(course: Course, staged: Path) -> Path:
    """Stage ``downloads/``: every released student notebook, a zip of all, the learner's wheel of
    the checks, and their manifest.

    The site's Sphinx extension (``sphinx_site``) copies the folder to the site, points each
    chapter's ``.ipynb`` button at its notebook and lists them on the downloads page.

    Returns:
        The staged folder.
    """
    folder = staged / DOWNLOADS
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    names = toc_order(course, course.chapters())
    for name in names:
        released = course.release_notebook(name)
        _write_if_changed(folder / released.name, released.read_bytes())
        title = notebook_title(read_notebook(released), name)
        entries.append({"file": released.name, "title": title, "page": f"chapters/{name}"})
    for stale in folder.glob("*.ipynb"):
        if stale.name not in {entry["file"] for entry in entries}:
            stale.unlink()
    archive = folder / f".{NOTEBOOKS_ZIP}.new"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
        for entry in entries:
            info = zipfile.ZipInfo(f"autograd-state/{entry['file']}", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, (folder / entry["file"]).read_bytes())
    _write_if_changed(folder / NOTEBOOKS_ZIP, archive.read_bytes())
    archive.unlink()
    kit = stage_kit(course, folder)
    for stale in folder.glob("*.whl"):
        if stale.name != kit:
            stale.unlink()
    text = json.dumps({"notebooks": entries, "zip": NOTEBOOKS_ZIP, "kit": kit}, indent=1) + "\n"
    _write_if_changed(folder / "manifest.json", text.encode())
    return folder


def stage_kit(course: Course, folder: Path) -> str:
    """Put the learner's wheel (:mod:`autograder.pipeline.site.kit`) in ``folder``; returns its file name.

    Its visible keys run every reference once, so the wheel is built again only when the packages
    it is made from changed (kept in ``_build/kit/<digest>/``).
    """
    from autograder.pipeline.site.kit import build_kit

    digest = hashlib.sha256("".join(tree_digest(PACKAGE_ROOT / name) for name in KIT_SOURCES).encode())
    cached = course.build / "kit" / digest.hexdigest()[:16]
    wheel = next(cached.glob("*.whl"), None) or build_kit(course, cached)
    _write_if_changed(folder / wheel.name, wheel.read_bytes())
    return wheel.name


def stage(course: Course) -> Path:
    """Lay out ``_build/stage``: the book's files plus the student edition of every chapter."""
    staged = course.build / "stage"
    staged.mkdir(parents=True, exist_ok=True)
    for name in BOOK_FILES:
        shutil.copy2(course.root / name, staged / name)
    # Unchanged chapter files stay in place so the execution cache sees no change.
    copy_book_dirs(course, staged)
    stage_downloads(course, staged)
    digest = package_digest()
    for chapter in course.chapters():
        target = staged / "chapters" / f"{chapter}.ipynb"
        fresh = staged / "chapters" / f".{chapter}.new.ipynb"
        stage_chapter(course.release_notebook(chapter), fresh, digest, source=course.source_notebook(chapter))
        if target.exists() and target.read_bytes() == fresh.read_bytes():
            fresh.unlink()
        else:
            fresh.replace(target)
    return staged


_SPHINX_PROGRESS = re.compile(r"^(?P<phase>reading sources|writing output)\.\.\. \[\s*(?P<percent>\d+)%\] (?P<doc>\S+)")


def _jupyter_book(course: Course, staged: Path, output: Path, rewrite_all: bool, progress: bool = False) -> None:
    """``jupyter-book build`` of a staged tree into ``output/_build/html``, warnings as errors.

    With ``progress``, its output goes to ``output/_build/book.log`` and a bar follows Sphinx's own
    count: reading the pages (executing the chapters), then writing them.
    """
    command = [str(Path(sys.executable).parent / "jupyter-book"), "build", str(staged), "--path-output", str(output),
               "-W", "-n", "--keep-going", *(["--all"] if rewrite_all else [])]
    if not progress:
        result = subprocess.run(command, cwd=course.root)
        if result.returncode != 0:
            raise RuntimeError(f"jupyter-book build failed (exit {result.returncode}); see the log above")
        return
    log = output / "_build" / "book.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    bar = Progress(200, "% of the book built", note="starting Sphinx")
    with log.open("w") as handle, subprocess.Popen(command, cwd=course.root, stdout=subprocess.PIPE,
                                                  stderr=subprocess.STDOUT, text=True) as build:
        for line in build.stdout:
            handle.write(line)
            found = _SPHINX_PROGRESS.match(line)
            if found:
                offset = 0 if found["phase"] == "reading sources" else 100
                bar.advance_to(offset + int(found["percent"]), found["doc"])
    bar.finish()
    if build.returncode != 0:
        tail = "".join(log.read_text().splitlines(keepends=True)[-30:])
        raise RuntimeError(f"jupyter-book build failed (exit {build.returncode}); its log is {log}:\n{tail}")


def _build_staged(course: Course, staged_before: Path, restage, output: Path, progress: bool = False) -> None:
    """Restage, then build unless the staged tree is exactly what the last successful build built."""
    assets_before = tree_digest(staged_before / "_vendor")
    staged = restage()
    stamp = output / "_build" / ".staged-digest"
    extension = hashlib.sha256(b"".join(Path(__file__).with_name(name).read_bytes() for name in SITE_EXTENSIONS)
                               + tree_digest(Path(__file__).with_name("static")).encode()).hexdigest()
    digest = f"{tree_digest(staged)}\n{extension}"
    before = _read(stamp)
    if before == digest and (output / "_build" / "html" / "index.html").exists():
        # Jupyter Book would find nothing to do, after seconds of start-up: skip it.
        print(f"{output / '_build' / 'html'} is up to date")
        return
    stamp.unlink(missing_ok=True)
    # Sphinx rewrites only the pages whose sources changed: rewrite all when the static files
    # or the site's extension (which shapes every page) changed.
    rewrite_all = tree_digest(staged / "_vendor") != assets_before or before.partition("\n")[2] != extension
    _jupyter_book(course, staged, output, rewrite_all=rewrite_all, progress=progress)
    stamp.write_text(digest)


def instructor_chapter(source: Path, executed: Path) -> nbformat.NotebookNode:
    """The instructor source of a chapter with the outputs of its executed student edition.

    Cells are matched by nbgrader ``grade_id``. Answer cells (solutions) and hidden test cells
    are tagged to be collapsed; answer and test cells are not executed, as in the student edition.

    Raises:
        ValueError: when the two notebooks do not have the same cells.
    """
    notebook = read_notebook(source)
    ran = read_notebook(executed)
    # The executed edition may carry cells of the book's own (no grade_id): skip them.
    outputs = {nbgrader_meta(cell)["grade_id"]: cell for cell in ran.cells if nbgrader_meta(cell).get("grade_id")}
    ids = [nbgrader_meta(cell).get("grade_id") for cell in notebook.cells]
    if ids != list(outputs):
        raise ValueError(f"{executed} does not have the cells of {source}: build the student edition first")
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        twin = outputs[nbgrader_meta(cell).get("grade_id")]
        cell.outputs, cell.execution_count = twin.get("outputs", []), twin.get("execution_count")
        tags = cell.metadata.setdefault("tags", [])
        if is_answer_cell(cell) or is_test_cell(cell):
            tags.extend(tag for tag in SKIP_TAGS if tag not in tags)
        if is_answer_cell(cell) or (is_test_cell(cell) and HIDDEN_TESTS_BEGIN in cell.source):
            tags.extend(tag for tag in COLLAPSED_TAGS if tag not in tags)
    # Widget state lives in the notebook metadata: without it the widgets' views stay empty.
    for key in ("kernelspec", "language_info", "widgets"):
        if key in ran.metadata:
            notebook.metadata[key] = ran.metadata[key]
    return notebook


def instructor_root(course: Course) -> Path:
    """Where the instructor edition is built: its site is ``<this>/_build/html``."""
    return course.build / "instructor"


def stage_instructor(course: Course) -> Path:
    """Lay out ``_build/instructor/stage`` from the sources and the student build's executed chapters."""
    staged = instructor_root(course) / "stage"
    staged.mkdir(parents=True, exist_ok=True)
    copy_book_dirs(course, staged)
    stage_downloads(course, staged)
    shutil.copy2(course.root / "_toc.yml", staged / "_toc.yml")
    config = yaml.safe_load((course.root / "_config.yml").read_text())
    config["title"] = f"{config.get('title', 'Course')} (instructor edition)"
    # Never executed: the pages take the student build's outputs.
    config.setdefault("execute", {})["execute_notebooks"] = "off"
    config.setdefault("html", {})["announcement"] = INSTRUCTOR_BANNER
    text = yaml.safe_dump(config, sort_keys=False)
    if not (staged / "_config.yml").exists() or (staged / "_config.yml").read_text() != text:
        (staged / "_config.yml").write_text(text)
    for chapter in course.chapters():
        executed = course.build / "jupyter_execute" / "chapters" / f"{chapter}.ipynb"
        target = staged / "chapters" / f"{chapter}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        text = nbformat.writes(instructor_chapter(course.source_notebook(chapter), executed))
        # Unchanged chapters keep their file untouched, so Sphinx does not rebuild their pages.
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
    return staged


def release_changed(course: Course, progress: bool = False) -> list[str]:
    """Release (nbgrader generate_assignment) only the chapters changed since the last book build.

    A chapter is released again when its instructor source, ``nbgrader_config.py`` or its student
    edition changed (:func:`autograder.pipeline.site.release.changed`); releasing takes seconds per
    chapter, most of a no-change rebuild otherwise.

    Returns:
        The chapters released.
    """
    from autograder.pipeline.site.release import changed

    db = f"sqlite:///{course.build / 'book-gradebook.db'}"
    stale = changed(course, db)
    if stale:
        release(course, stale, db=db, progress=progress)
    return stale


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""


def build_book(course: Course, edition: str = "student", progress: bool = False) -> Path:
    """Release every chapter, stage the book, build it with warnings as errors, refuse leaks.

    The instructor edition is built after (and from) the student edition, so both are checked.

    Args:
        course: The course checkout.
        edition: ``"student"`` (the public site) or ``"instructor"`` (solutions shown, collapsed).
        progress: Progress bars on stderr (releasing the chapters, building the pages).

    Returns:
        The folder of the built site: ``_build/html``, or ``_build/instructor/_build/html``.

    Raises:
        RuntimeError: when a build fails or the student site shows solution code or a hidden test.
    """
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; choose one of {', '.join(EDITIONS)}")
    course.build.mkdir(exist_ok=True)
    release_changed(course, progress)
    _build_staged(course, course.build / "stage", lambda: stage(course), course.root, progress)
    site = course.build / "html"
    check_no_leaks(course, site)
    if edition == "instructor":
        root = instructor_root(course)
        _build_staged(course, root / "stage", lambda: stage_instructor(course), root, progress)
        return root / "_build" / "html"
    return site


def check_no_leaks(course: Course, site: Path) -> None:
    """Refuse a student site that shows a solution line, a hidden test or their markers.

    Raises:
        RuntimeError: naming the files and lines found.
    """
    editions = [course.release_notebook(chapter) for chapter in course.chapters()]
    secrets = set()
    for chapter in course.chapters():
        secrets |= secret_lines(course.source_notebook(chapter), *editions)
    leaks = find_leaks(site, secrets)
    if leaks:
        shown = "\n".join(f"  {leak.path.relative_to(site)}: {leak.line!r}" for leak in leaks[:20])
        raise RuntimeError(f"the site shows solution code or hidden tests:\n{shown}")


CHROMIUM = Path("/usr/bin/chromium")
PDF_NAME = "autograd-state.pdf"
# Print rules on top of the theme's: only the article, code wrapped rather than cut at the edge.
PRINT_CSS = """
.bd-header, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-header-article, .bd-footer,
.bd-footer-article, .prev-next-area, .bd-header-announcement, .skip-link, .search-button__wrapper,
.theme-switch-button, .header-article-items { display: none !important; }
.bd-main, .bd-content, .bd-article-container, .bd-container, .bd-page-width { max-width: none !important; }
pre, .highlight pre, .output pre, code { white-space: pre-wrap !important; overflow-wrap: anywhere; }
div.highlight, .cell_output, .output { overflow: visible !important; }
img { max-width: 100% !important; break-inside: avoid; }
h1, h2, h3 { break-after: avoid; }
"""


def book_pages(course: Course) -> list[str]:
    """The pages of the book in reading order, as ``_toc.yml`` lists them (``book/intro``, ...)."""
    toc = yaml.safe_load((course.root / "_toc.yml").read_text())
    return [toc["root"]] + [entry["file"] for part in toc.get("parts", []) for entry in part.get("chapters", [])]


def _contents_html(entries: list[tuple[str, int]], title: str) -> str:
    rows = "".join(
        f"<li><span>{html_escape(name)}</span><span>{page}</span></li>" for name, page in entries
    )
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Contents</title><style>"
        "body{font-family:sans-serif;margin:2cm} ol{list-style:none;padding:0}"
        "li{display:flex;justify-content:space-between;border-bottom:1px dotted #999;padding:4pt 0}"
        f"</style></head><body><h1>{html_escape(title)}</h1><h2>Contents</h2><ol>{rows}</ol></body></html>"
    )


def html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def print_book(course: Course, site: Path, target: Path | None = None) -> Path:
    """Print the built student site to one PDF through headless Chromium, offline.

    Each page of the table of contents is opened from a loopback server (every other request
    is refused), left to render its figures, widgets and explorers, and printed with the rules
    of ``PRINT_CSS``; the pages are joined behind a contents page, with a PDF outline.

    Args:
        course: The course checkout (its ``_toc.yml`` gives the order).
        site: The built student site, ``_build/html``.
        target: Where to write the PDF (default ``<site>/../pdf/autograd-state.pdf``).

    Returns:
        The PDF written.

    Raises:
        RuntimeError: when Chromium or Playwright is missing, or a page fails to load.
    """
    from pypdf import PdfReader, PdfWriter

    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:  # pragma: no cover - requirements.txt installs it
        raise RuntimeError("printing the book needs playwright (requirements.txt)") from err
    if not CHROMIUM.exists():
        raise RuntimeError(f"printing the book needs Chromium at {CHROMIUM} (apt-get install chromium)")
    target = target or site.parent / "pdf" / PDF_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    title = yaml.safe_load((course.root / "_config.yml").read_text()).get("title", "Course")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format, *args):  # noqa: A002 - the signature http.server calls
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    printed: list[tuple[str, bytes]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"]
            )
            context = browser.new_context(viewport={"width": 1000, "height": 1400})
            context.route("**/*", lambda route: route.continue_()
                          if urlparse(route.request.url).hostname in ("127.0.0.1", None)
                          or route.request.url.startswith(("data:", "blob:")) else route.abort())
            page = context.new_page()
            page.set_default_timeout(60_000)
            for name in book_pages(course):
                response = page.goto(f"{base}/{name}.html", wait_until="load")
                if response is None or response.status >= 400:
                    raise RuntimeError(f"{name}.html did not load for printing")
                page.wait_for_load_state("networkidle")
                page.wait_for_function("[...document.images].every((img) => img.complete)")
                page.add_style_tag(content=PRINT_CSS)
                heading = page.locator("article h1").first
                label = heading.inner_text().strip().rstrip("#").strip() if heading.count() else name
                printed.append((label, page.pdf(format="A4", print_background=True,
                                                margin={"top": "15mm", "bottom": "15mm", "left": "12mm",
                                                        "right": "12mm"})))
            readers = [(label, PdfReader(io.BytesIO(data))) for label, data in printed]
            # Page numbers as printed: the contents page comes first.
            starts, page_number = [], 2
            for label, reader in readers:
                starts.append((label, page_number))
                page_number += len(reader.pages)
            page.set_content(_contents_html(starts, title))
            contents = PdfReader(io.BytesIO(page.pdf(format="A4")))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    writer = PdfWriter()
    writer.append(contents)
    for label, reader in readers:
        opens = len(writer.pages)
        writer.append(reader)
        # Once its pages are in: an entry added before them names a page number, which a PDF
        # allows only for a page of another document.
        writer.add_outline_item(label, opens)
    writer.add_metadata({"/Title": title})
    with target.open("wb") as handle:
        writer.write(handle)
    return target


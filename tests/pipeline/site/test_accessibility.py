"""Every page of both editions as readers with different needs meet it, in Chromium.

- axe-core (vendored, pinned: ``_vendor/axe-core``) checks every page against WCAG 2.1 A and AA;
  any violation fails, naming the rule and the elements.
- Every image says what it shows: no empty alt, no file name, no "figure".
- At 390 px (a phone) no page scrolls sideways and no line of code or output is wider than its
  block; in the theme's dark mode every figure stays on
  a light, opaque background. Screenshots of both land in ``_build/test-artifacts``.
- The page stride explorer is driven by the keyboard alone.

The pages are those the built site has (chapters, companions, prose, search, index), so a new
page is checked without touching this file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder.pipeline.course import ROOT
from tests.browser import CUT_CODE_LINES, screenshot, serve, watched_page

pytestmark = [pytest.mark.book, pytest.mark.browser]

AXE = ROOT / "_vendor" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
PHONE = {"width": 390, "height": 844}
# Folders of a built site that hold assets, not pages.
ASSET_DIRS = {"_static", "_sources", "_images", "_downloads", "downloads", "_sphinx_design_static"}
MEANINGLESS_ALT = re.compile(r"^\s*(figure|image|img|picture|graph|plot|png|chart)?\s*\d*\s*$", re.IGNORECASE)
FILE_NAME_ALT = re.compile(r"(\.(png|jpe?g|gif|svg|webp)\b|_images/|^data:)", re.IGNORECASE)
SETTLE_MS = 20_000

# A page is settled when its math is typeset and its fonts, images, explorers and widgets are ready:
# what axe and the layout checks read (waiting for the network to fall quiet instead would add half
# a second to every page).
TYPESET = "() => window.MathJax && MathJax.startup ? MathJax.startup.promise.then(() => true) : true"
READY = """() => document.fonts.status === 'loaded'
    && [...document.querySelectorAll('.stride-explorer')].every((e) => e.dataset.mounted === 'true')
    && [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')].every(
      (tag) => tag.parentElement.querySelector('.jupyter-widgets'))
    && [...document.images].every((img) => img.complete)"""

RUN_AXE = """async ({tags, within}) => {
    const result = await axe.run(within ? {include: [within]} : document,
      {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
    return result.violations.map((v) => ({id: v.id, impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 2).join(''))}));
}"""

IMAGES = """() => [...document.querySelectorAll('img')].filter((img) => img.getBoundingClientRect().width > 0
    || img.closest('article')).map((img) => ({src: img.getAttribute('src') || '', alt: img.getAttribute('alt')}))"""

# Elements reaching past the phone's width that no block lets the reader scroll to.
UNSCROLLABLE_OVERFLOW = """() => [...document.querySelectorAll('article *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
    .filter((e) => {
      for (let node = e.parentElement; node && node.tagName !== 'ARTICLE'; node = node.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(node).overflowX)) return false;
      }
      return true;
    }).slice(0, 3).map((e) => e.tagName + '.' + e.className)"""

# Tab sets whose labels take more than one row (a label pushed under the others).
WRAPPED_TABS = """() => [...document.querySelectorAll('article .sd-tab-set')]
    .map((set) => new Set([...set.querySelectorAll(':scope > label')]
      .map((label) => Math.round(label.getBoundingClientRect().top))))
    .filter((tops) => tops.size > 1).length"""

FIGURE_BACKGROUNDS = """() => [...document.querySelectorAll('article img')].map((img) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let transparent = 0;
    for (let k = 3; k < data.length; k += 4 * 7) if (data[k] < 250) transparent += 1;
    let node = img;
    let background = 'rgba(0, 0, 0, 0)';
    while (node && /rgba\\(0, 0, 0, 0\\)|transparent/.test(background)) {
      background = getComputedStyle(node).backgroundColor;
      node = node.parentElement;
    }
    return {src: img.getAttribute('src'), transparent, background};
})"""


def site_pages(site: Path) -> list[str]:
    """Every HTML page of a built site (relative paths), the redirecting root ``index.html`` aside."""
    pages = []
    for path in sorted(site.rglob("*.html")):
        relative = path.relative_to(site)
        if relative.parts[0] in ASSET_DIRS or relative.as_posix() == "index.html":
            continue
        pages.append(relative.as_posix())
    return pages


def chapter_pages(site: Path) -> list[str]:
    """The chapter and companion pages of a built site."""
    return [page for page in site_pages(site) if page.startswith("chapters/")]


@pytest.fixture(scope="module")
def editions(built_book):
    with serve(built_book.student) as student, serve(built_book.instructor) as instructor:
        yield {"student": (built_book.student, student), "instructor": (built_book.instructor, instructor)}


def open_settled(context, url: str):
    page, watch = watched_page(context)
    page.goto(url, wait_until="load")
    page.evaluate(TYPESET)
    page.wait_for_function(READY, timeout=SETTLE_MS)
    return page, watch


def meaningless_alt(alt: str | None) -> bool:
    """An alt text that does not say what an image shows: none, empty, a file name, "figure"."""
    return alt is None or bool(MEANINGLESS_ALT.match(alt)) or bool(FILE_NAME_ALT.search(alt)) or len(alt.split()) < 3


def test_the_alt_check_refuses_what_says_nothing():
    for alt in (None, "", "figure", "Figure 2", "png", "../_images/3f2a.png", "3f2a9c.png", "image"):
        assert meaningless_alt(alt), alt
    assert not meaningless_alt("Storage strip of 32 slots above a 4 by 8 grid")


def each_page(browser, editions, edition: str, pages, checks: dict) -> dict[str, list[str]]:
    """Open each of ``pages`` settled once, run every ``checks[name](page)`` (a list of problems) on
    it, and add the page's console errors to each check's problems."""
    _, url = editions[edition]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: dict[str, list[str]] = {name: [] for name in checks}
    try:
        for page_name in pages:
            page, watch = open_settled(context, f"{url}/{page_name}")
            for name, check in checks.items():
                problems[name] += [f"{page_name}: {problem}" for problem in check(page) + watch.problems]
            page.close()
    finally:
        context.close()
    return problems


def axe_violations(page, within: str | None = None) -> list[str]:
    """What axe finds on the page, or only in the elements ``within`` selects (a part that changed
    on a page already checked whole)."""
    page.add_script_tag(path=str(AXE))
    return [
        f"{violation['id']} ({violation['impact']}) on {violation['targets'][:5]}"
        for violation in page.evaluate(RUN_AXE, {"tags": WCAG_TAGS, "within": within})
    ]


def images_without_alt(page) -> list[str]:
    return [
        f"image {image['src'][:60]} has alt text {image['alt']!r}"
        for image in page.evaluate(IMAGES)
        if meaningless_alt(image["alt"])
    ]


@pytest.fixture(scope="module")
def every_page(browser, editions):
    """What axe finds and which images say nothing, per edition, each page opened once for both
    (opening and settling a page costs more than either check)."""
    found: dict[str, dict[str, list[str]]] = {}

    def of(edition: str) -> dict[str, list[str]]:
        if edition not in found:
            pages = site_pages(editions[edition][0])
            assert any(page.startswith("chapters/") for page in pages) and "search.html" in pages
            found[edition] = each_page(browser, editions, edition, pages,
                                       {"axe": axe_violations, "alt": images_without_alt})
        return found[edition]

    return of


@pytest.mark.parametrize("edition", ["student", "instructor"])
def test_every_page_has_no_wcag_21_aa_violation(every_page, edition):
    assert every_page(edition)["axe"] == []


@pytest.mark.parametrize("edition", ["student", "instructor"])
def test_every_image_says_what_it_shows(every_page, edition):
    # Sphinx gives an image without alt text its file name as alt: axe passes that, this does not.
    assert every_page(edition)["alt"] == []


def test_every_chapter_fits_a_phone_and_stays_readable_in_dark_mode(browser, editions):
    site, url = editions["student"]
    problems = []
    for mode in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
        # The theme reads the reader's choice from localStorage before it paints.
        context.add_init_script(f"localStorage.setItem('mode', '{mode}'); localStorage.setItem('theme', '{mode}');")
        try:
            for name in chapter_pages(site):
                page, watch = open_settled(context, f"{url}/{name}")
                assert page.evaluate("document.documentElement.dataset.theme") == mode
                overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
                if overflow > 1:
                    problems.append(f"{name} ({mode}): the page scrolls sideways by {overflow}px")
                cut = page.evaluate(UNSCROLLABLE_OVERFLOW)
                if cut:
                    problems.append(f"{name} ({mode}): wider than the phone, in no scrolling block: {cut}")
                cut = page.evaluate(CUT_CODE_LINES)
                if cut:
                    problems.append(f"{name} ({mode}): code lines wider than their block: {cut}")
                if page.evaluate(WRAPPED_TABS):
                    problems.append(f"{name} ({mode}): a tab set's labels take more than one row")
                if mode == "dark":
                    for figure in page.evaluate(FIGURE_BACKGROUNDS):
                        light = [int(v) for v in re.findall(r"\d+", figure["background"])[:3]]
                        on_light = len(light) == 3 and min(light) >= 200
                        if figure["transparent"] and not on_light:
                            problems.append(f"{name}: figure {figure['src']} is transparent on {figure['background']}")
                stem = name.removeprefix("chapters/").removesuffix(".html")
                screenshot(page, f"phone-{mode}-{stem}", full_page=True)
                problems += [f"{name} ({mode}): {problem}" for problem in watch.problems]
                page.close()
        finally:
            context.close()
    assert problems == []


def test_the_page_explorer_works_from_the_keyboard_alone(browser, editions):
    _, url = editions["student"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page, watch = open_settled(context, f"{url}/chapters/views.html")
        explorer = page.locator(".stride-explorer").first
        # Tab from the top of the page to the explorer's first field, as a keyboard user would.
        for _ in range(600):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.dataset.role") == "shape-input":
                break
        else:
            pytest.fail("Tab never reaches the explorer's start-shape field")
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
        status = explorer.locator('[data-role="status"]')
        assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"

        page.keyboard.press("Control+A")
        page.keyboard.type("2, 3, 4")
        page.keyboard.press("Enter")
        assert "shape (2, 3, 4), stride (12, 4, 1), offset 0, contiguous" in status.inner_text()
        page.keyboard.press("Tab")  # Start
        assert page.evaluate("document.activeElement.dataset.role") == "start"
        page.keyboard.press("Tab")  # the op field
        page.keyboard.type("movedim(0, -1)")
        page.keyboard.press("Enter")
        assert "t.movedim(0, -1): shape (3, 4, 2), stride (4, 1, 12)" in status.inner_text()
        page.keyboard.type("diagonal()")
        page.keyboard.press("Tab")  # Apply, pressed with the keyboard
        assert page.evaluate("document.activeElement.dataset.role") == "apply"
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
        page.keyboard.press("Enter")
        assert "t.movedim(0, -1).diagonal(): shape (2, 3), stride (12, 5), offset 0" in status.inner_text()
        page.keyboard.press("Escape")
        assert status.inner_text().startswith("t: shape (2, 3, 4)")
        assert explorer.locator('[data-role="chain"]').inner_text() == "t"
        explorer.scroll_into_view_if_needed()
        screenshot(explorer, "stride-explorer-keyboard")
        assert watch.problems == []
    finally:
        context.close()

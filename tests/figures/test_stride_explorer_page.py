"""The stride explorer that runs on the static page agrees with torch, driven as a reader drives it.

It lives in Chapter 1 of the built student site. A reader types a start shape, applies ops by
typing, pressing Enter, clicking Apply or a quick-op button, and types a shape to ``view`` as;
what the page then shows (shape, stride, offset, contiguity, legality and the view's strides)
must be what torch computes for the same chain. A second test runs many generated chains
through the page's maths in one go.
"""

from __future__ import annotations

import math
import random
import re

import pytest
import torch

from autograd_figures.chain import parse_shape, torch_chain
from tests.browser import screenshot, serve, watched_page

pytestmark = [pytest.mark.book, pytest.mark.browser]

CHAPTER_PAGE = "chapters/views.html"
QUICK_OPS = {"T", "[:, ::2]", "[1:3]", "[::2]", "unsqueeze(0)", "view(-1)"}

# (start shape, ops in order, shape to view the result as): transposes, permutes, slices with
# steps, selects, expand and view, with views that torch accepts and refuses.
CHAINS = [
    ("4, 8", ["T"], "32"),
    ("4, 8", ["T"], "2, 4, 4"),
    ("4, 8", ["[:, ::2]"], "16"),
    ("4, 8", ["[::2]"], "16"),
    ("4, 8", ["[1:3]", "unsqueeze(0)", "expand(3, 2, 8)"], "6, 8"),
    ("4, 8", ["[1:3]", "unsqueeze(0)", "expand(3, 2, 8)"], "3, 16"),
    ("2, 3, 4", ["permute(2, 0, 1)"], "4, 6"),
    ("2, 3, 4", ["permute(1, 0, 2)"], "3, 2, 2, 2"),
    ("2, 3, 4", ["transpose(0, 2)", "[1:3, :, ::2]"], "-1"),
    ("3, 4, 5", ["[:, 1::2, ::3]"], "3, -1"),
    ("4", ["expand(3, 4)"], "12"),
    ("4, 8", ["view(2, 16)", "T"], "-1, 2"),
    ("4, 8", ["[0]", "[1::3]"], "3, 1"),
    ("2, 3, 4", ["[..., None]", "expand(2, 3, 4, 5)", "[:, 0]"], "4, 5, 2"),
    ("6, 4", ["[:, ::2]", "view(-1)"], "4, 3"),
    # The other view ops.
    ("4, 8", ["narrow(1, 2, 4)", "T"], "16"),
    ("4, 8", ["select(1, 3)"], "2, 2"),
    ("4, 8", ["unbind(1)[-1]"], "4"),
    ("4, 8", ["split((1, 3), 0)[1]", "chunk(2, 1)[1]"], "12"),
    ("3, 4, 5", ["diagonal(1, 1, 2)"], "-1"),
    ("4, 8", ["unfold(1, 4, 2)"], "4, 12"),
    ("1, 4, 1, 8", ["squeeze((0, 2))", "movedim(0, -1)"], "32"),
    ("2, 3, 4", ["flatten(1)"], "2, 2, 6"),
    ("4, 8", ["as_strided((3, 3), (8, 1), 1)"], "9"),
]


@pytest.fixture(scope="module")
def explorer_page(browser, built_book):
    with serve(built_book.student) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page, watch = watched_page(context)
        page.goto(f"{url}/{CHAPTER_PAGE}", wait_until="load")
        explorer = page.locator(".stride-explorer").first
        explorer.locator(".se-slot").first.wait_for()
        yield page, explorer, watch
        context.close()


def torch_view(tensor: torch.Tensor, shape: tuple[int, ...]) -> tuple[bool, tuple[int, ...] | None]:
    """Whether torch's ``view`` accepts ``shape`` here, and the strides it gives."""
    try:
        return True, tensor.view(shape).stride()
    except RuntimeError:
        return False, None


def shown(explorer, role: str) -> str:
    return explorer.locator(f'[data-role="{role}"]').first.inner_text().strip()


def apply_like_a_reader(explorer, op: str, how: int) -> None:
    """Apply one op the way a reader might: quick-op button, Enter in the field, or Apply."""
    if op in QUICK_OPS and how % 2 == 0:
        exact = re.compile("^" + re.escape(op) + "$")
        explorer.locator('[data-role="quick-op"]').filter(has_text=exact).click()
        return
    field = explorer.locator('[data-role="op-input"]')
    field.click()
    field.fill("")
    field.type(op)
    if how % 3 == 1:
        field.press("Enter")
    else:
        explorer.locator('[data-role="apply"]').click()


@pytest.mark.parametrize(("start", "ops", "view_as"), CHAINS, ids=[f"{s}|{'|'.join(o)}|{v}" for s, o, v in CHAINS])
def test_page_shows_what_torch_computes(explorer_page, start, ops, view_as):
    page, explorer, watch = explorer_page
    shape_field = explorer.locator('[data-role="shape-input"]')
    shape_field.fill(start)
    explorer.locator('[data-role="start"]').click()
    for how, op in enumerate(ops):
        apply_like_a_reader(explorer, op, how)
        assert shown(explorer, "message") == "", f"the page refused {op!r}"
    view_field = explorer.locator('[data-role="view-input"]')
    view_field.fill("")
    view_field.type(view_as)
    explorer.locator('[data-role="check-view"]').click()

    tensor = torch_chain(parse_shape(start), ops)
    assert shown(explorer, "shape") == str(tuple(tensor.shape))
    assert shown(explorer, "stride") == str(tensor.stride())
    assert shown(explorer, "offset") == str(tensor.storage_offset())
    assert shown(explorer, "contiguous") == str(tensor.is_contiguous())
    assert explorer.locator('[data-role="grid"] td').count() == tensor.numel()
    legal, stride = torch_view(tensor, parse_shape(view_as))
    verdict = explorer.locator('[data-role="verdict"]')
    assert verdict.get_attribute("data-legal") == str(legal).lower()
    if legal:
        assert shown(explorer, "view-stride") == str(stride)
    else:
        assert "illegal" in verdict.inner_text()
    assert watch.problems == []


def test_refused_ops_undo_and_reset(explorer_page):
    page, explorer, watch = explorer_page
    explorer.locator('[data-role="shape-input"]').fill("4, 8")
    explorer.locator('[data-role="shape-input"]').press("Enter")
    apply_like_a_reader(explorer, "T", 1)
    apply_like_a_reader(explorer, "view(32)", 1)
    assert "not adjacent in memory" in shown(explorer, "message")
    assert shown(explorer, "chain") == "t.T"  # the refused op is not applied
    apply_like_a_reader(explorer, "[:, ::2]", 1)
    assert shown(explorer, "message") == ""
    explorer.locator('[data-role="undo"]').click()
    assert shown(explorer, "chain") == "t.T"
    assert shown(explorer, "stride") == "(1, 8)"
    explorer.locator('[data-role="reset"]').click()
    assert shown(explorer, "chain") == "t"
    explorer.locator('[data-role="undo"]').click()
    assert "nothing to undo" in shown(explorer, "message")
    explorer.locator('[data-role="shape-input"]').fill("4, x")
    explorer.locator('[data-role="start"]').click()
    assert "cannot read a shape" in shown(explorer, "message")
    # Hovering a grid cell lights up the storage slot it reads.
    apply_like_a_reader(explorer, "T", 1)
    explorer.locator('[data-role="grid"] td[data-index="0,1"]').hover()
    assert explorer.locator('.se-slot.se-lit').get_attribute("data-slot") == "8"
    explorer.scroll_into_view_if_needed()
    screenshot(explorer, "stride-explorer-page")
    assert watch.problems == []


def random_op(rng: random.Random, tensor: torch.Tensor) -> str:
    """One op text that may or may not fit ``tensor`` (both sides must then agree it fails)."""
    ndim = tensor.dim()
    kind = rng.choice(["T", "transpose", "permute", "slice", "select", "none", "unsqueeze", "expand", "view"])
    dim = rng.randint(-ndim, ndim - 1) if ndim else 0
    if kind == "T":
        return "T"
    if kind == "transpose":
        return f"transpose({dim}, {rng.randint(-ndim, ndim - 1) if ndim else 0})"
    if kind == "permute":
        order = list(range(ndim))
        rng.shuffle(order)
        return f"permute({', '.join(map(str, order))})"
    if kind in ("slice", "select"):
        items = []
        for _ in range(rng.randint(1, max(ndim, 1))):
            if kind == "select" and rng.random() < 0.4:
                items.append(str(rng.randint(-3, 3)))
                continue
            start = rng.choice(["", str(rng.randint(-4, 4))])
            stop = rng.choice(["", str(rng.randint(-4, 5))])
            step = rng.choice(["", "1", "2", "3"])
            items.append(f"{start}:{stop}" + (f":{step}" if step else ""))
        return "[" + ", ".join(items) + "]"
    if kind == "none":
        return rng.choice(["[None]", "[..., None]", "[:, None]"])
    if kind == "unsqueeze":
        return f"unsqueeze({rng.randint(-ndim - 1, ndim)})"
    if kind == "expand":
        sizes = [rng.randint(2, 3) if size == 1 else rng.choice([size, -1]) for size in tensor.shape]
        lead = [rng.randint(1, 3) for _ in range(rng.randint(0, 1))]
        return f"expand({', '.join(map(str, lead + sizes))})"
    return f"view({', '.join(map(str, random_shape(rng, tensor.numel())))})"


def random_shape(rng: random.Random, numel: int) -> list[int]:
    """A shape with ``numel`` elements (sometimes with -1, sometimes with a wrong count)."""
    shape, rest = [], numel
    while rest > 1 and len(shape) < 3:
        divisors = [d for d in range(2, rest + 1) if rest % d == 0]
        size = rng.choice(divisors)
        shape.append(size)
        rest //= size
    shape = shape or [numel]
    rng.shuffle(shape)
    if rng.random() < 0.2:
        shape.insert(rng.randint(0, len(shape)), 1)
    if rng.random() < 0.3:
        shape[rng.randrange(len(shape))] = -1
    if rng.random() < 0.1:
        shape[0] += 1
    return shape


def generated_cases(count: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        start = [rng.randint(1, 4) for _ in range(rng.randint(1, 3))]
        tensor = torch.arange(float(math.prod(start))).view(start)
        ops, failed_at = [], None
        for k in range(rng.randint(1, 4)):
            op = random_op(rng, tensor)
            ops.append(op)
            try:
                tensor = torch_chain(tuple(start), ops)
            except (RuntimeError, IndexError, ValueError):
                failed_at = k
                break
        case = {"start": start, "ops": ops, "failed_at": failed_at}
        if failed_at is None:
            view_as = random_shape(rng, tensor.numel())
            legal, stride = torch_view(tensor, tuple(view_as))
            case.update(
                view_as=view_as, shape=list(tensor.shape), stride=list(tensor.stride()),
                offset=tensor.storage_offset(), contiguous=tensor.is_contiguous(),
                legal=legal, view_stride=list(stride) if legal else None,
            )
        cases.append(case)
    return cases


PAGE_MATHS = """(cases) => cases.map((c) => {
    const S = window.StrideExplorer;
    let l = S.contiguous(c.start);
    for (let k = 0; k < c.ops.length; k++) {
      try { l = S.applyOp(l, S.parseOp(c.ops[k])); } catch (err) { return {failed_at: k, error: err.message}; }
    }
    const verdict = S.explainView(l, c.view_as || [-1]);
    return {failed_at: null, shape: l.shape, stride: l.stride, offset: l.offset,
            contiguous: S.isContiguous(l), legal: verdict.legal, view_stride: verdict.stride};
})"""


def test_generated_chains_agree_with_torch(explorer_page):
    page, _, watch = explorer_page
    cases = generated_cases(400)
    assert sum(case["failed_at"] is None for case in cases) > 200  # most chains are valid
    assert sum(case.get("legal") is False for case in cases) > 20  # and many views are refused
    results = page.evaluate(PAGE_MATHS, cases)
    keys = ("failed_at", "shape", "stride", "offset", "contiguous", "legal", "view_stride")
    mismatches = [
        (case, result)
        for case, result in zip(cases, results, strict=True)
        if any(case.get(key) != result.get(key) for key in keys if case["failed_at"] is None or key == "failed_at")
    ]
    assert mismatches == []
    assert watch.problems == []


NEW_OPS_MATHS = """(chains) => chains.map(([start, ops]) => {
    const S = window.StrideExplorer;
    try {
      const l = S.applyChain(start, ops);
      return {shape: l.shape, stride: l.stride, offset: l.offset};
    } catch (err) { return {error: err.message}; }
})"""


def test_the_other_view_ops_agree_with_torch(explorer_page):
    """The page's own maths against the kernel explorer's path, which applies each op with torch."""
    from autograd_figures.chain import apply_chain
    from tests.figures.test_view_ops import explorer_result, random_chains

    page, _, watch = explorer_page
    chains = random_chains(600)
    results = page.evaluate(NEW_OPS_MATHS, [[list(start), ops] for start, ops in chains])
    mismatches = []
    for (start, ops), result in zip(chains, results, strict=True):
        expected = explorer_result(start, ops)
        if isinstance(expected, Exception):
            if "error" not in result:
                mismatches.append((start, ops, str(expected), result))
        elif result != {"shape": list(expected.shape), "stride": list(expected.stride), "offset": expected.offset}:
            mismatches.append((start, ops, apply_chain(start, ops), result))
    assert mismatches == []
    assert watch.problems == []

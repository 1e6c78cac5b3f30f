/*
 * Stride explorer for the static page: apply view ops to torch.arange(n).view(shape) and see
 * the layout, with no kernel. The maths mirrors autograd_figures/layout.py (itself ATen's rules,
 * computeStride for view) and the op language mirrors autograd_figures/chain.py, so the page, the
 * ipywidgets explorer and torch agree; the browser tests check this page against torch.
 *
 * window.StrideExplorer exposes the maths (for the tests and the curious) and mountAll(),
 * which turns every <div class="stride-explorer" data-shape="4, 8"> into an explorer.
 */
(function () {
  "use strict";
  if (window.StrideExplorer) {
    window.StrideExplorer.mountAll();
    return;
  }

  // ---- layout maths (autograd_figures/layout.py) -------------------------------------------------

  class ViewError extends Error {}

  function prod(values) {
    return values.reduce((a, b) => a * b, 1);
  }

  function tuple(values) {
    // Python's spelling, so the page reads like the notebook: (), (8,), (8, 1).
    if (values.length === 1) return "(" + values[0] + ",)";
    return "(" + values.join(", ") + ")";
  }

  function wrapDim(dim, ndim, what) {
    if (!(-ndim <= dim && dim < ndim)) {
      throw new Error(`${what || "dim"} ${dim} is out of range for a tensor with ${ndim} dims`);
    }
    return ((dim % ndim) + ndim) % ndim;
  }

  function contiguousStrides(shape) {
    const strides = shape.map(() => 1);
    for (let d = shape.length - 2; d >= 0; d--) strides[d] = strides[d + 1] * Math.max(shape[d + 1], 1);
    return strides;
  }

  function layout(shape, stride, offset) {
    return { shape: shape.slice(), stride: stride.slice(), offset: offset || 0 };
  }

  function contiguous(shape) {
    return layout(shape, contiguousStrides(shape), 0);
  }

  function numel(l) {
    return prod(l.shape);
  }

  function transpose(l, dim0, dim1) {
    const a = wrapDim(dim0, l.shape.length);
    const b = wrapDim(dim1, l.shape.length);
    const shape = l.shape.slice();
    const stride = l.stride.slice();
    [shape[a], shape[b]] = [shape[b], shape[a]];
    [stride[a], stride[b]] = [stride[b], stride[a]];
    return layout(shape, stride, l.offset);
  }

  function permute(l, dims) {
    const order = dims.map((d) => wrapDim(d, l.shape.length));
    const sorted = order.slice().sort((x, y) => x - y);
    if (sorted.length !== l.shape.length || sorted.some((d, i) => d !== i)) {
      throw new Error(`permute${tuple(dims)} is not a permutation of the ${l.shape.length} dims`);
    }
    return layout(order.map((d) => l.shape[d]), order.map((d) => l.stride[d]), l.offset);
  }

  function clampBound(bound, length, fallback) {
    // Python's slice.indices for a positive step.
    if (bound === null) return fallback;
    if (bound < 0) return Math.max(bound + length, 0);
    return Math.min(bound, length);
  }

  function sliceDim(l, dim, start, stop, step) {
    if (step <= 0) throw new Error(`slice step must be positive (torch has no negative strides), got ${step}`);
    const d = wrapDim(dim, l.shape.length);
    const first = clampBound(start, l.shape[d], 0);
    const end = clampBound(stop, l.shape[d], l.shape[d]);
    const shape = l.shape.slice();
    const stride = l.stride.slice();
    shape[d] = end > first ? Math.ceil((end - first) / step) : 0;
    stride[d] *= step;
    return layout(shape, stride, l.offset + first * l.stride[d]);
  }

  function select(l, dim, index) {
    const d = wrapDim(dim, l.shape.length);
    const size = l.shape[d];
    if (!(-size <= index && index < size)) {
      throw new Error(`index ${index} is out of range for dim ${d} of size ${size}`);
    }
    const i = ((index % size) + size) % size;
    const keep = (_, k) => k !== d;
    return layout(l.shape.filter(keep), l.stride.filter(keep), l.offset + i * l.stride[d]);
  }

  function unsqueeze(l, dim) {
    const ndim = l.shape.length;
    const d = wrapDim(dim, ndim + 1);
    const newStride = d >= ndim ? 1 : l.shape[d] * l.stride[d];
    const shape = l.shape.slice();
    const stride = l.stride.slice();
    shape.splice(d, 0, 1);
    stride.splice(d, 0, newStride);
    return layout(shape, stride, l.offset);
  }

  function expand(l, sizes) {
    const ndim = l.shape.length;
    if (sizes.length < ndim) {
      throw new Error(`expand${tuple(sizes)} has fewer sizes than the tensor has dims (${ndim})`);
    }
    const shape = sizes.map(() => 0);
    const stride = sizes.map(() => 0);
    // From the right, as ATen's inferExpandGeometry: a new leading dim that stays size 1
    // inherits the stride that steps over the dim to its right.
    for (let i = sizes.length - 1; i >= 0; i--) {
      const d = ndim - sizes.length + i;
      let target = sizes[i];
      let size;
      let st;
      if (d >= 0) {
        size = l.shape[d];
        st = l.stride[d];
      } else {
        size = 1;
        st = i + 1 < sizes.length ? shape[i + 1] * stride[i + 1] : 0;
      }
      if (target === -1) {
        if (d < 0) throw new Error(`expand size -1 is not allowed for the new leading dim ${i}`);
        target = size;
      }
      if (target < 0) throw new Error(`expand sizes must be non-negative or -1, got ${target}`);
      if (size !== target) {
        if (size !== 1) {
          throw new Error(`expand: dim ${i} has size ${size}, which is not 1, so it cannot become ${target}`);
        }
        size = target;
        st = 0;
      }
      shape[i] = size;
      stride[i] = st;
    }
    return layout(shape, stride, l.offset);
  }

  function isContiguous(l) {
    if (numel(l) === 0) return true;
    let expected = 1;
    for (let d = l.shape.length - 1; d >= 0; d--) {
      if (l.shape[d] === 1) continue;
      if (l.stride[d] !== expected) return false;
      expected *= l.shape[d];
    }
    return true;
  }

  function indices(shape) {
    // Every multi-index of shape in row-major order.
    let all = [[]];
    for (const size of shape) {
      const next = [];
      for (const prefix of all) for (let i = 0; i < size; i++) next.push(prefix.concat([i]));
      all = next;
    }
    return all;
  }

  function slotOf(l, index) {
    return index.reduce((slot, i, d) => slot + i * l.stride[d], l.offset);
  }

  function storageIndices(l) {
    return indices(l.shape).map((index) => slotOf(l, index));
  }

  function overlaps(l) {
    const slots = storageIndices(l);
    return new Set(slots).size < slots.length;
  }

  function broadcastDims(l) {
    return l.shape.map((size, d) => d).filter((d) => l.stride[d] === 0 && l.shape[d] > 1);
  }

  function inferViewShape(shape, count) {
    if (shape.filter((n) => n === -1).length > 1) {
      throw new Error(`only one dim can be inferred with -1, got shape ${tuple(shape)}`);
    }
    if (shape.some((n) => n < -1)) {
      throw new Error(`invalid size ${Math.min(...shape)} in shape ${tuple(shape)}`);
    }
    const known = prod(shape.filter((n) => n !== -1));
    const inferred = shape.includes(-1);
    if (inferred) {
      if (known === 0) {
        throw new Error(`cannot infer the -1 in ${tuple(shape)}: with another size 0 it could be any value`);
      }
      if (count % known === 0) return shape.map((n) => (n === -1 ? count / known : n));
    } else if (known === count) {
      return shape.slice();
    }
    const asked = inferred ? `a multiple of ${known}` : String(known);
    throw new Error(
      `shape ${tuple(shape)} is invalid: the number of elements differs ` +
        `(the tensor has ${count} elements, the shape asks for ${asked})`,
    );
  }

  function dimsText(dims, word) {
    const lo = Math.min(...dims);
    const hi = Math.max(...dims);
    return lo === hi ? `${word} ${lo}` : `${word}s ${lo}-${hi}`;
  }

  function range(lo, hi) {
    const out = [];
    for (let k = lo; k <= hi; k++) out.push(k);
    return out;
  }

  // ATen's computeStride (aten/src/ATen/TensorUtils.cpp), as autograd_figures.layout.explain_view.
  function explainView(l, newShape) {
    let shape;
    try {
      shape = inferViewShape(newShape, numel(l));
    } catch (err) {
      return { legal: false, stride: null, reason: err.message };
    }
    const ndim = l.shape.length;
    if (ndim === 0) {
      return {
        legal: true,
        stride: shape.map(() => 1),
        reason: "A 0-d tensor holds one element; any shape of one element views it.",
      };
    }
    if (numel(l) === 0) {
      const same = shape.length === ndim && shape.every((n, d) => n === l.shape[d]);
      return {
        legal: true,
        stride: same ? l.stride.slice() : contiguousStrides(shape),
        reason: "The tensor has no elements, so any shape with 0 elements is a view.",
      };
    }
    const newStride = shape.map(() => 0);
    let viewD = shape.length - 1;
    let base = l.stride[ndim - 1];
    let tensorNumel = 1;
    let viewNumel = 1;
    let groupEnd = ndim - 1;
    const pieces = [];
    for (let d = ndim - 1; d >= 0; d--) {
      tensorNumel *= l.shape[d];
      const joinsNext = d > 0 && (l.shape[d - 1] === 1 || l.stride[d - 1] === tensorNumel * base);
      if (joinsNext) continue;
      const firstViewD = viewD;
      while (viewD >= 0 && (viewNumel < tensorNumel || shape[viewD] === 1)) {
        newStride[viewD] = viewNumel * base;
        viewNumel *= shape[viewD];
        viewD -= 1;
      }
      if (viewNumel !== tensorNumel) {
        // The new dim just taken needs more elements than this group holds: it would have to
        // merge the group with old dim d-1, which is elsewhere in memory.
        const outer = range(d, groupEnd).find((k) => l.shape[k] !== 1);
        const needed = l.stride[outer] * l.shape[outer];
        return {
          legal: false,
          stride: null,
          reason:
            `dims ${d - 1} and ${outer} (strides ${l.stride[d - 1]} and ${l.stride[outer]}) ` +
            `are not adjacent in memory: merging them would need stride ${l.stride[d - 1]} == ` +
            `${l.stride[outer]}*${l.shape[outer]} = ${needed}. ` +
            `New dim ${viewD + 1} (size ${shape[viewD + 1]}) would have to span both, so view() fails; ` +
            "use .reshape() (which copies) or .contiguous() first.",
        };
      }
      let oldPart = dimsText(range(d, groupEnd), "old dim");
      if (groupEnd > d) oldPart += " (contiguous with each other)";
      const newPart = firstViewD > viewD ? dimsText(range(viewD + 1, firstViewD), "new dim") : "no new dims";
      pieces.push(`${oldPart} → ${newPart}`);
      base = d > 0 ? l.stride[d - 1] : base;
      tensorNumel = 1;
      viewNumel = 1;
      groupEnd = d - 1;
    }
    return {
      legal: true,
      stride: newStride,
      reason:
        "Legal: each new dim fits inside one block of old dims that are contiguous with each other, " +
        `and such a block can be merged or split freely: ${pieces.reverse().join("; ")}.`,
    };
  }

  function view(l, newShape) {
    const verdict = explainView(l, newShape);
    if (!verdict.legal) throw new ViewError(verdict.reason);
    return layout(inferViewShape(newShape, numel(l)), verdict.stride, l.offset);
  }

  // ---- the op language (autograd_figures/chain.py) -----------------------------------------------

  const CALLS = {
    transpose: [2, 2], permute: [1, null], expand: [1, null], unsqueeze: [1, 1], view: [1, null],
    narrow: [3, 3], select: [2, 2], unbind: [0, 1], split: [1, 2], chunk: [1, 2], diagonal: [0, 3],
    unfold: [3, 3], squeeze: [0, null], movedim: [2, 2], flatten: [0, 2], as_strided: [2, 3],
  };
  const SEQUENCE_CALLS = new Set(["permute", "expand", "view", "squeeze"]);
  // Arguments that may (or must) be a tuple of integers: "method position".
  const TUPLE_ARGS = new Set(["split 0", "movedim 0", "movedim 1", "as_strided 0", "as_strided 1"]);
  const TUPLE_ONLY = new Set(["as_strided 0", "as_strided 1"]);
  // These return a tuple of views: the chain takes one piece, as in split(2, 1)[0].
  const PIECE_CALLS = new Set(["unbind", "split", "chunk"]);
  const EXAMPLES =
    "T, transpose(0, 1), permute(1, 0), [1:3], [:, ::2], [0], expand(3, 4, 8), unsqueeze(0), view(2, 16), " +
    "narrow(1, 2, 3), select(0, 1), unbind(0)[1], split(3, 1)[0], chunk(2, 1)[1], diagonal(), " +
    "unfold(1, 3, 2), squeeze(), movedim(0, -1), flatten(), as_strided((2, 2), (1, 2), 1)";
  const ELLIPSIS = "...";

  function parseInt_(text, source) {
    const trimmed = text.trim();
    if (/^-?\s*\d+$/.test(trimmed)) return Number(trimmed.replace(/\s+/g, ""));
    throw new Error(`in '${source}': expected an integer, got '${trimmed}'`);
  }

  function splitItems(text) {
    // Comma-separated items; one trailing comma is allowed, as in Python.
    const parts = text.split(",");
    if (parts.length > 1 && parts[parts.length - 1].trim() === "") parts.pop();
    return parts;
  }

  function parseIndexItem(text, source) {
    const item = text.trim();
    if (item === ELLIPSIS) return ELLIPSIS;
    if (item === "None") return null;
    if (item.includes(":")) {
      const bounds = item.split(":");
      if (bounds.length > 3) throw new Error(`cannot parse '${source}'; try one of: ${EXAMPLES}`);
      const [start, stop, step] = [0, 1, 2].map((k) =>
        bounds[k] === undefined || bounds[k].trim() === "" ? null : parseInt_(bounds[k], source),
      );
      return { start, stop, step };
    }
    return parseInt_(item, source);
  }

  function parseOp(text) {
    const source = String(text).trim();
    let code = source.startsWith("t.") || source.startsWith("t[") ? source.slice(1) : source;
    if (code.startsWith(".")) code = code.slice(1);
    code = code.trim();
    if (!code) throw new Error(`empty op; try one of: ${EXAMPLES}`);
    if (code === "T") return { kind: "T", args: [], text: source };
    if (code.startsWith("[")) {
      if (!code.endsWith("]") || code.length < 3) throw new Error(`cannot parse '${source}'; try one of: ${EXAMPLES}`);
      const items = splitItems(code.slice(1, -1)).map((part) => parseIndexItem(part, source));
      return { kind: "index", args: items, text: source };
    }
    const call = /^([A-Za-z_]\w*)\s*\((.*)\)(?:\s*\[\s*([^\]]*)\])?$/.exec(code);
    if (!call || !Object.prototype.hasOwnProperty.call(CALLS, call[1])) {
      throw new Error(`unknown op '${source}'; try one of: ${EXAMPLES}`);
    }
    const name = call[1];
    const piece = call[3] === undefined ? null : parseInt_(call[3], source);
    if (piece !== null && !PIECE_CALLS.has(name)) {
      throw new Error(`in '${source}': ${name} returns one tensor, so it takes no [index]`);
    }
    if (piece === null && PIECE_CALLS.has(name)) {
      throw new Error(`${name} returns a tuple of views: pick one piece, e.g. ${name}(...)[0], in '${source}'`);
    }
    let args = splitArgs(call[2], source);
    if (SEQUENCE_CALLS.has(name) && args.length === 1 && Array.isArray(args[0])) args = args[0];
    const [fewest, most] = CALLS[name];
    if (args.length < fewest || (most !== null && args.length > most)) {
      const wanted = fewest === most ? String(fewest) : `at least ${fewest}`;
      throw new Error(`${name} takes ${wanted} argument(s), got ${args.length} in '${source}'`);
    }
    args.forEach((arg, position) => {
      const key = `${name} ${position}`;
      if (Array.isArray(arg) && !TUPLE_ARGS.has(key)) {
        throw new Error(`in '${source}': expected an integer, got '(${arg.join(", ")})'`);
      }
      if (!Array.isArray(arg) && TUPLE_ONLY.has(key)) {
        throw new Error(`in '${source}': argument ${position + 1} of ${name} is a tuple of integers`);
      }
    });
    return { kind: name, args, text: source, piece };
  }

  function splitArgs(text, source) {
    // Top-level comma-separated arguments: integers, or a (tuple) / [list] of integers.
    const args = [];
    let depth = 0;
    let current = "";
    for (const ch of text + ",") {
      if (ch === "(" || ch === "[") depth += 1;
      if (ch === ")" || ch === "]") depth -= 1;
      if (depth < 0 || depth > 1) throw new Error(`cannot parse '${source}'; try one of: ${EXAMPLES}`);
      if (ch === "," && depth === 0) {
        args.push(current);
        current = "";
      } else {
        current += ch;
      }
    }
    if (depth !== 0) throw new Error(`cannot parse '${source}'; try one of: ${EXAMPLES}`);
    if (args.length > 1 && args[args.length - 1].trim() === "") args.pop();
    if (args.length === 1 && args[0].trim() === "") return [];
    return args.map((arg) => {
      const packed = /^\s*[([](.*)[)\]]\s*$/.exec(arg);
      if (!packed) return parseInt_(arg, source);
      return packed[1].trim() === "" ? [] : splitItems(packed[1]).map((part) => parseInt_(part, source));
    });
  }

  function parseShape(text) {
    let source = String(text).trim();
    const packed = /^[([](.*)[)\]]$/.exec(source);
    if (packed) source = packed[1].trim();
    if (source === "") return [];
    return splitItems(source).map((part) => {
      if (!/^\s*-?\s*\d+\s*$/.test(part)) {
        throw new Error(`cannot read a shape from '${String(text).trim()}'; write sizes like 4, 8`);
      }
      return Number(part.replace(/\s+/g, ""));
    });
  }

  function itemCode(item) {
    if (item === ELLIPSIS) return "...";
    if (item === null) return "None";
    if (typeof item === "object") {
      let text = (item.start === null ? "" : item.start) + ":" + (item.stop === null ? "" : item.stop);
      return text + (item.step === null ? "" : ":" + item.step);
    }
    return String(item);
  }

  function opCode(op) {
    if (op.kind === "T") return ".T";
    if (op.kind === "index") return "[" + op.args.map(itemCode).join(", ") + "]";
    const args = op.args.map((a) => (Array.isArray(a) ? "(" + a.join(", ") + (a.length === 1 ? ",)" : ")") : String(a)));
    return `.${op.kind}(${args.join(", ")})` + (op.piece === null || op.piece === undefined ? "" : `[${op.piece}]`);
  }

  function applyIndex(l, items) {
    if (items.filter((item) => item === ELLIPSIS).length > 1) {
      throw new Error("an index can only have a single ellipsis ('...')");
    }
    const ndim = l.shape.length;
    const consumed = items.filter((item) => item !== null && item !== ELLIPSIS).length;
    if (consumed > ndim) throw new Error(`too many indices: ${consumed} for a tensor with ${ndim} dims`);
    let dim = 0;
    for (const item of items) {
      if (item === ELLIPSIS) {
        dim += ndim - consumed;
      } else if (item === null) {
        l = unsqueeze(l, dim);
        dim += 1;
      } else if (typeof item === "object") {
        l = sliceDim(l, dim, item.start, item.stop, item.step === null ? 1 : item.step);
        dim += 1;
      } else {
        l = select(l, dim, item);
      }
    }
    return l;
  }

  // ---- the other view ops (autograd_figures/chain.py, ATen's rules) -------------------------------

  function narrow(l, dim, start, length) {
    const d = wrapDim(dim, l.shape.length);
    const size = l.shape[d];
    if (!(-size <= start && start <= size)) {
      throw new Error(`narrow: start ${start} is out of range for dim ${d} of size ${size}`);
    }
    const first = start < 0 ? start + size : start;
    if (length < 0 || first + length > size) {
      throw new Error(`narrow: start ${first} + length ${length} exceeds dim ${d} of size ${size}`);
    }
    return sliceDim(l, d, first, first + length, 1);
  }

  function pick(pieces, piece, what) {
    if (!(-pieces.length <= piece && piece < pieces.length)) {
      throw new Error(`${what} gives ${pieces.length} piece(s), so [${piece}] is out of range`);
    }
    return pieces[((piece % pieces.length) + pieces.length) % pieces.length];
  }

  function splitPieces(size, split, what) {
    if (Array.isArray(split)) {
      if (split.some((n) => n < 0) || split.reduce((a, b) => a + b, 0) !== size) {
        throw new Error(`${what}: split sizes (${split.join(", ")}) must be non-negative and add up to the dim's ${size}`);
      }
      let start = 0;
      return split.map((n) => {
        const piece = [start, n];
        start += n;
        return piece;
      });
    }
    if (split < 0 || (split === 0 && size !== 0)) throw new Error(`${what}: split size must be positive, got ${split}`);
    const count = split ? Math.max(Math.ceil(size / split), 1) : 1;
    return range(0, count - 1).map((k) => [k * split, Math.min(split, size - k * split)]);
  }

  function pieceOf(l, op) {
    const [first, second] = op.args;
    if (op.kind === "unbind") {
      const dim = first === undefined ? 0 : first;
      const d = wrapDim(dim, l.shape.length);
      const pieces = range(0, l.shape[d] - 1).map((k) => [k, 1]);
      return select(l, d, pick(pieces, op.piece, `unbind(${dim})`)[0]);
    }
    const dim = second === undefined ? 0 : second;
    const d = wrapDim(dim, l.shape.length);
    const size = l.shape[d];
    let pieces;
    let what;
    if (op.kind === "split") {
      what = `split(${Array.isArray(first) ? "(" + first.join(", ") + ")" : first}, ${dim})`;
      pieces = splitPieces(size, first, what);
    } else {
      if (first <= 0) throw new Error(`chunk expects a positive number of chunks, got ${first}`);
      what = `chunk(${first}, ${dim})`;
      // An empty dim still gives that many empty pieces (ATen splits it with sizes).
      pieces = size === 0 ? range(1, first).map(() => [0, 0]) : splitPieces(size, Math.ceil(size / first), what);
    }
    const [start, length] = pick(pieces, op.piece, what);
    return sliceDim(l, d, start, start + length, 1);
  }

  function diagonal(l, offset, dim1, dim2) {
    const a = wrapDim(dim1, l.shape.length);
    const b = wrapDim(dim2, l.shape.length);
    if (a === b) throw new Error(`diagonal dimensions cannot be identical ${dim1}, ${dim2}`);
    let size;
    let start;
    if (offset >= 0) {
      size = Math.max(Math.min(l.shape[a], l.shape[b] - offset), 0);
      start = offset * l.stride[b];
    } else {
      size = Math.max(Math.min(l.shape[a] + offset, l.shape[b]), 0);
      start = -offset * l.stride[a];
    }
    const keep = (_, d) => d !== a && d !== b;
    return layout(
      l.shape.filter(keep).concat([size]),
      l.stride.filter(keep).concat([l.stride[a] + l.stride[b]]),
      l.offset + (size ? start : 0),
    );
  }

  function unfold(l, dim, size, step) {
    if (l.shape.length === 0) {
      wrapDim(dim, 1);
      if (!(size >= 0 && size <= 1) || step <= 0) {
        throw new Error(`unfold: a 0-d tensor takes size 0 or 1 and a positive step, got ${size}, ${step}`);
      }
      return layout([size], [1], l.offset);
    }
    const d = wrapDim(dim, l.shape.length);
    if (!(size >= 0 && size <= l.shape[d])) {
      throw new Error(`unfold: size ${size} is not in 0..${l.shape[d]} (the size of dim ${d})`);
    }
    if (step <= 0) throw new Error(`unfold: step must be positive, got ${step}`);
    const shape = l.shape.slice();
    const stride = l.stride.slice();
    shape[d] = Math.floor((l.shape[d] - size) / step) + 1;
    stride[d] = l.stride[d] * step;
    return layout(shape.concat([size]), stride.concat([l.stride[d]]), l.offset);
  }

  function squeeze(l, dims) {
    const wrapped = dims.map((d) => wrapDim(d, Math.max(l.shape.length, 1)));
    if (new Set(wrapped).size !== wrapped.length) {
      throw new Error(`squeeze: a dim appears more than once in (${dims.join(", ")})`);
    }
    const chosen = dims.length ? new Set(wrapped) : new Set(l.shape.map((_, d) => d));
    const keep = (_, d) => !(chosen.has(d) && l.shape[d] === 1);
    return layout(l.shape.filter(keep), l.stride.filter(keep), l.offset);
  }

  function movedim(l, source, destination) {
    const sources = Array.isArray(source) ? source : [source];
    const targets = Array.isArray(destination) ? destination : [destination];
    if (sources.length !== targets.length) {
      throw new Error(`movedim: ${sources.length} source dims but ${targets.length} destination dims`);
    }
    const ndim = l.shape.length;
    const src = sources.map((d) => wrapDim(d, Math.max(ndim, 1)));
    const dst = targets.map((d) => wrapDim(d, Math.max(ndim, 1)));
    if (new Set(src).size !== src.length || new Set(dst).size !== dst.length) {
      throw new Error("movedim: repeated dim in source or destination");
    }
    if (ndim === 0) return l;
    const order = new Array(ndim).fill(null);
    src.forEach((s, k) => { order[dst[k]] = s; });
    const rest = range(0, ndim - 1).filter((d) => !src.includes(d));
    return permute(l, order.map((d) => (d === null ? rest.shift() : d)));
  }

  function mergeDims(l, startDim, endDim) {
    if (l.shape.length === 0) return layout([1], [1], l.offset);
    const a = wrapDim(startDim, l.shape.length);
    const b = wrapDim(endDim, l.shape.length);
    if (a > b) throw new Error("flatten() has invalid args: start_dim cannot come after end_dim");
    if (a === b) return l;
    const shape = l.shape.slice(0, a).concat([prod(l.shape.slice(a, b + 1))], l.shape.slice(b + 1));
    const verdict = explainView(l, shape);
    if (!verdict.legal) {
      throw new ViewError(
        `flatten(${startDim}, ${endDim}) copies here (it reshapes, and view${tuple(shape)} is illegal: ` +
          `${verdict.reason}); the explorer shows views only`,
      );
    }
    return layout(shape, verdict.stride, l.offset);
  }

  function asStrided(l, size, stride, storageOffset, storageSize) {
    if (size.length !== stride.length) {
      throw new Error(`as_strided: mismatch in length of strides and shape (${stride.length} and ${size.length})`);
    }
    if (size.some((n) => n < 0)) throw new Error(`as_strided: sizes must be non-negative, got ${tuple(size)}`);
    if (stride.some((n) => n < 0)) throw new Error("as_strided: negative strides are not supported");
    const offset = storageOffset === undefined ? l.offset : storageOffset;
    if (offset < 0) throw new Error(`as_strided: storage offset must be non-negative, got ${offset}`);
    const needed = prod(size) ? offset + size.reduce((sum, n, k) => sum + (n - 1) * stride[k], 0) + 1 : 0;
    if (storageSize !== undefined && needed > storageSize) {
      throw new Error(
        `as_strided: size ${tuple(size)}, stride ${tuple(stride)} and offset ${offset} need ${needed} ` +
          `storage slots, but the storage has ${storageSize}`,
      );
    }
    return layout(size, stride, offset);
  }

  function applyOp(l, op, storageSize) {
    const [a, b, c] = op.args;
    switch (op.kind) {
      case "T":
        if (l.shape.length !== 2) {
          throw new Error(`T needs a 2-D tensor but this one has ${l.shape.length} dims; use permute(...) instead`);
        }
        return transpose(l, 0, 1);
      case "index":
        return applyIndex(l, op.args);
      case "transpose":
        return transpose(l, op.args[0], op.args[1]);
      case "permute":
        return permute(l, op.args);
      case "expand":
        return expand(l, op.args);
      case "unsqueeze":
        return unsqueeze(l, op.args[0]);
      case "view":
        return view(l, op.args);
      case "narrow":
        return narrow(l, a, b, c);
      case "select":
        return select(l, a, b);
      case "unbind":
      case "split":
      case "chunk":
        return pieceOf(l, op);
      case "diagonal":
        return diagonal(l, a === undefined ? 0 : a, b === undefined ? 0 : b, c === undefined ? 1 : c);
      case "unfold":
        return unfold(l, a, b, c);
      case "squeeze":
        return squeeze(l, op.args);
      case "movedim":
        return movedim(l, a, b);
      case "flatten":
        return mergeDims(l, a === undefined ? 0 : a, b === undefined ? -1 : b);
      case "as_strided":
        return asStrided(l, a, b, c, storageSize);
      default:
        throw new Error(`unknown op '${op.text}'`);
    }
  }

  function applyChain(shape, ops) {
    const storage = prod(shape);
    return ops.reduce((l, op) => applyOp(l, typeof op === "string" ? parseOp(op) : op, storage), contiguous(shape));
  }

  // ---- drawing -------------------------------------------------------------------------------

  // autograd_figures.layout.SLOT_COLORS: one colour per slot, none repeated within 128 slots (MAX_SLOTS).
  const PALETTE = [
    "#933428", "#76f3c6", "#926abe", "#d3a23b", "#0d6277", "#ffc5d8", "#5c913c", "#8fa4fd",
    "#8b3f03", "#58f3e7", "#a763aa", "#bbae3f", "#015e8c", "#fdc8c9", "#2c965d", "#ae9af5",
    "#794d0a", "#6dedff", "#b55d92", "#9cb855", "#29559f", "#ffc9b9", "#10957d", "#c792e5",
    "#6b550a", "#a3e2ff", "#bf5b75", "#78c073", "#4c4c9e", "#fecca7", "#0f9293", "#db8bce",
    "#5c5c01", "#b9dcfe", "#c25d57", "#4dc493", "#644394", "#fecf86", "#078fa7", "#e987b2",
    "#406408", "#c8d7fd", "#be6437", "#11c5b2", "#773b84", "#eed86d", "#0e8ac0", "#f18694",
    "#016a30", "#d5d2fe", "#b46d0f", "#0ac1cd", "#85356e", "#d0e37c", "#4781cc", "#f18a75",
    "#026851", "#e5cbfe", "#a07a0c", "#28bce6", "#8f3254", "#adec97", "#6b78cd", "#ea9258",
    "#106562", "#febffb", "#8b840b", "#58b3f6", "#933238", "#87f2b7", "#876ec5", "#dc9d41",
    "#10636f", "#fec4e0", "#6e8d2b", "#7fa9fd", "#913812", "#64f3d8", "#9e66b4", "#c7a83a",
    "#076081", "#ffc6cf", "#46944d", "#a09ffa", "#814805", "#52f1f7", "#af5f9e", "#abb349",
    "#055a9d", "#fdc9c2", "#16966f", "#bc96ee", "#735100", "#95e6fd", "#bb5c83", "#8abc64",
    "#3e50a0", "#fccbb3", "#029489", "#d28eda", "#645902", "#b0defe", "#c15c66", "#62c283",
    "#5a479a", "#fdce9b", "#10919d", "#e388c0", "#506000", "#c2d9fc", "#c16047", "#32c5a4",
    "#6f3f8d", "#fbd36b", "#168db2", "#ee86a2", "#26691a", "#cfd5fc", "#ba6924", "#0fc3c1",
    "#7f3879", "#dfde73", "#2f86c9", "#f28883", "#076945", "#dccffd", "#aa7404", "#1fbfda",
  ];
  const MAX_SLOTS = 128;
  const MAX_CELLS = 512;
  const QUICK_OPS = ["T", "[:, ::2]", "[1:3]", "[::2]", "unsqueeze(0)", "view(-1)"];

  function slotColor(slot) {
    return PALETTE[slot % PALETTE.length];
  }

  function luminance(hex) {
    // WCAG 2.1 relative luminance, as autograd_figures.layout.relative_luminance.
    const [r, g, b] = [1, 3, 5].map((k) => {
      const v = parseInt(hex.slice(k, k + 2), 16) / 255;
      return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  function ink(hex) {
    // Black or white text, whichever has the higher WCAG contrast (one always reaches 4.5:1).
    const y = luminance(hex);
    return (y + 0.05) / 0.05 >= 1.05 / (y + 0.05) ? "black" : "white";
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children || []) node.appendChild(child);
    return node;
  }

  function summaryLines(l, counts) {
    const lines = broadcastDims(l).map(
      (d) => `stride 0 along dim ${d}: every element along it reads the same slot (broadcast)`,
    );
    if (overlaps(l)) {
      const shared = counts.filter((n) => n > 1).length;
      lines.push(
        `overlap: ${shared} storage slot(s) are read by more than one element (×n under a slot), ` +
          "so writing through this view is ambiguous",
      );
    }
    if (counts.some((n) => n === 0)) lines.push("grey hatched slots belong to the storage but are not read by this view");
    return lines;
  }

  class Explorer {
    constructor(root) {
      this.root = root;
      this.shape = [];
      this.ops = [];
      this.layout = contiguous([]);
      this.build();
      this.setShape(root.getAttribute("data-shape") || "4, 8");
    }

    field(role, label, placeholder, value) {
      const id = `${this.uid}-${role}`;
      const input = el("input", {
        type: "text", id, "data-role": role, placeholder, spellcheck: "false", autocomplete: "off",
      });
      input.value = value || "";
      return [el("label", { for: id, text: label }), input];
    }

    button(role, label, title) {
      return el("button", { type: "button", "data-role": role, title: title || label, text: label });
    }

    build() {
      Explorer.count = (Explorer.count || 0) + 1;
      this.uid = `stride-explorer-${Explorer.count}`;
      const [shapeLabel, shapeInput] = this.field("shape-input", "start shape", "e.g. 4, 8");
      const [opLabel, opInput] = this.field("op-input", "op", EXAMPLES);
      const [viewLabel, viewInput] = this.field("view-input", "view as", "e.g. 2, 16");
      this.inputs = { shape: shapeInput, op: opInput, view: viewInput };
      const start = this.button("start", "Start", "start again from torch.arange(n).view(shape)");
      const apply = this.button("apply", "Apply", "apply the op to the current tensor");
      const undo = this.button("undo", "Undo", "drop the last op");
      const reset = this.button("reset", "Reset", "drop every op");
      const check = this.button("check-view", "Check view", "is view(shape) legal on the current tensor?");
      apply.classList.add("primary");
      const quick = el("div", { class: "se-quick", role: "group", "aria-label": "quick ops" },
        QUICK_OPS.map((text) => {
          const b = this.button("quick-op", text, `apply ${text}`);
          b.addEventListener("click", () => this.apply(text));
          return b;
        }));
      this.out = {
        start: el("code", { "data-role": "start-code" }),
        chain: el("code", { "data-role": "chain" }),
        message: el("div", { class: "se-message", "data-role": "message", role: "alert" }),
        shape: el("code", { "data-role": "shape" }),
        stride: el("code", { "data-role": "stride" }),
        offset: el("code", { "data-role": "offset" }),
        contiguous: el("code", { "data-role": "contiguous" }),
        verdict: el("div", { class: "se-verdict", "data-role": "verdict", "aria-live": "polite" }),
        strip: el("div", { class: "se-strip", "data-role": "storage" }),
        grid: el("div", { class: "se-grid", "data-role": "grid" }),
        notes: el("ul", { class: "se-notes", "data-role": "notes" }),
        // What a screen reader announces after each action (the header shows the same, visually).
        status: el("div", { class: "se-sr-only", role: "status", "aria-live": "polite", "data-role": "status" }),
      };
      const header = el("dl", { class: "se-header" }, [
        el("dt", { text: "shape" }), el("dd", {}, [this.out.shape]),
        el("dt", { text: "stride" }), el("dd", {}, [this.out.stride]),
        el("dt", { text: "offset" }), el("dd", {}, [this.out.offset]),
        el("dt", { text: "contiguous" }), el("dd", {}, [this.out.contiguous]),
      ]);
      this.root.replaceChildren(
        el("p", { class: "se-help", id: `${this.uid}-help`,
          text: "Type a start shape or an op and press Enter; Escape drops every op (Reset)." }),
        el("div", { class: "se-row" }, [shapeLabel, shapeInput, start]),
        el("div", { class: "se-row" }, [opLabel, opInput, apply, undo, reset]),
        quick,
        el("div", { class: "se-code" }, [this.out.start, el("br"), el("span", { text: "chain: " }), this.out.chain]),
        this.out.message,
        header,
        el("div", { class: "se-caption", text: "storage (one box per slot; the tensor reads the coloured ones)" }),
        this.out.strip,
        el("div", { class: "se-caption", "data-role": "grid-caption" }),
        this.out.grid,
        this.out.notes,
        el("div", { class: "se-row" }, [viewLabel, viewInput, check]),
        this.out.verdict,
        this.out.status,
      );
      for (const input of Object.values(this.inputs)) input.setAttribute("aria-describedby", `${this.uid}-help`);
      const onEnter = (input, action) =>
        input.addEventListener("keydown", (event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            action();
          }
        });
      start.addEventListener("click", () => this.setShape(shapeInput.value));
      onEnter(shapeInput, () => this.setShape(shapeInput.value));
      apply.addEventListener("click", () => this.apply(opInput.value));
      onEnter(opInput, () => this.apply(opInput.value));
      undo.addEventListener("click", () => this.undo());
      reset.addEventListener("click", () => this.reset());
      check.addEventListener("click", () => this.showVerdict());
      onEnter(viewInput, () => this.showVerdict());
      viewInput.addEventListener("input", () => this.showVerdict());
      this.root.addEventListener("keydown", (event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          this.inputs.op.value = "";
          this.reset();
        }
      });
    }

    setShape(text) {
      this.inputs.shape.value = text;
      let shape;
      try {
        shape = parseShape(text);
        if (!shape.length || shape.some((n) => n < 0)) {
          throw new Error(`the start shape needs at least one dim and no negative sizes, got '${text}'`);
        }
      } catch (err) {
        return this.fail(err.message);
      }
      this.shape = shape;
      this.ops = [];
      this.succeed();
    }

    apply(text) {
      let op;
      let next;
      try {
        op = parseOp(text);
        next = applyOp(this.layout, op, prod(this.shape));
      } catch (err) {
        return this.fail(err.message);
      }
      this.ops.push(op);
      this.layout = next;
      this.inputs.op.value = "";
      this.succeed(false);
    }

    undo() {
      if (!this.ops.length) return this.fail("nothing to undo: the chain is empty");
      this.ops.pop();
      this.succeed();
    }

    reset() {
      this.ops = [];
      this.succeed();
    }

    fail(message) {
      this.out.message.textContent = "⚠ " + message;
      this.root.setAttribute("data-error", "true");
    }

    announce() {
      const l = this.layout;
      this.out.status.textContent =
        `${this.out.chain.textContent}: shape ${tuple(l.shape)}, stride ${tuple(l.stride)}, ` +
        `offset ${l.offset}, ${isContiguous(l) ? "contiguous" : "not contiguous"}`;
    }

    succeed(recompute = true) {
      // Replaying the chain cannot fail: every op already applied once.
      if (recompute) this.layout = applyChain(this.shape, this.ops);
      this.out.message.textContent = "";
      this.root.removeAttribute("data-error");
      this.render();
    }

    render() {
      const l = this.layout;
      this.out.start.textContent = `t = torch.arange(${prod(this.shape)}.).view${tuple(this.shape)}`;
      this.out.chain.textContent = "t" + this.ops.map(opCode).join("");
      this.out.shape.textContent = tuple(l.shape);
      this.out.stride.textContent = tuple(l.stride);
      this.out.offset.textContent = String(l.offset);
      this.out.contiguous.textContent = isContiguous(l) ? "True" : "False";
      this.draw();
      this.showVerdict();
      this.announce();
    }

    draw() {
      const l = this.layout;
      const slots = storageIndices(l);
      const nSlots = Math.max(slots.length ? Math.max(...slots) + 1 : 0, l.offset + 1);
      const caption = this.root.querySelector('[data-role="grid-caption"]');
      this.out.strip.replaceChildren();
      this.out.grid.replaceChildren();
      this.out.notes.replaceChildren();
      if (nSlots > MAX_SLOTS || slots.length > MAX_CELLS) {
        caption.textContent = `(no picture: this layout spans ${nSlots} storage slots and ${slots.length} ` +
          `elements; the picture stops at ${MAX_SLOTS} slots and ${MAX_CELLS} elements)`;
        return;
      }
      const counts = new Array(nSlots).fill(0);
      for (const slot of slots) counts[slot] += 1;
      for (let k = 0; k < nSlots; k++) {
        const read = counts[k] > 0;
        const box = el("div", {
          class: "se-slot" + (read ? "" : " se-unread"), "data-slot": String(k), title: `storage slot ${k}`,
        }, [el("span", { text: String(k) })]);
        if (read) {
          box.style.background = slotColor(k);
          box.style.color = ink(slotColor(k));
        }
        if (k === l.offset) box.appendChild(el("em", { class: "se-offset", text: "offset" }));
        if (counts[k] > 1) box.appendChild(el("small", { class: "se-count", text: "×" + counts[k] }));
        this.out.strip.appendChild(box);
      }
      const ndim = l.shape.length;
      caption.textContent = ndim === 0
        ? "tensor (0-d: one element)"
        : ndim === 1
          ? "tensor (dim 0 runs left to right); each cell shows the storage slot it reads"
          : `tensor (rows: dim ${ndim - 2}, columns: dim ${ndim - 1}` +
            (ndim > 2 ? `; one panel per index of dims 0-${ndim - 3}` : "") +
            "); each cell shows the storage slot it reads";
      if (!slots.length) {
        this.out.grid.appendChild(el("div", { text: `(no elements: shape ${tuple(l.shape)})` }));
      } else {
        const lead = l.shape.slice(0, Math.max(ndim - 2, 0));
        const rows = ndim >= 2 ? l.shape[ndim - 2] : 1;
        const cols = ndim >= 1 ? l.shape[ndim - 1] : 1;
        for (const prefix of indices(lead)) {
          const table = el("table", { class: "se-panel" });
          if (prefix.length) table.appendChild(el("caption", { text: "[" + prefix.join(", ") + "]" }));
          for (let i = 0; i < rows; i++) {
            const tr = el("tr");
            for (let j = 0; j < cols; j++) {
              const index = prefix.concat(ndim >= 2 ? [i, j] : ndim === 1 ? [j] : []);
              const slot = slotOf(l, index);
              const td = el("td", {
                "data-slot": String(slot), "data-index": index.join(","), title: `t[${index.join(", ")}] reads slot ${slot}`,
                text: String(slot),
              });
              td.style.background = slotColor(slot);
              td.style.color = ink(slotColor(slot));
              td.addEventListener("mouseenter", () => this.highlight(slot, true));
              td.addEventListener("mouseleave", () => this.highlight(slot, false));
              tr.appendChild(td);
            }
            table.appendChild(tr);
          }
          this.out.grid.appendChild(table);
        }
      }
      for (const line of summaryLines(l, counts)) this.out.notes.appendChild(el("li", { text: line }));
    }

    highlight(slot, on) {
      for (const node of this.root.querySelectorAll(`[data-slot="${slot}"]`)) node.classList.toggle("se-lit", on);
    }

    showVerdict() {
      const text = this.inputs.view.value;
      const out = this.out.verdict;
      out.replaceChildren();
      out.removeAttribute("data-legal");
      out.removeAttribute("data-stride");
      if (!text.trim()) return;
      let shape;
      try {
        shape = parseShape(text);
      } catch (err) {
        out.appendChild(el("span", { class: "se-bad", text: "⚠ " + err.message }));
        return;
      }
      const verdict = explainView(this.layout, shape);
      out.setAttribute("data-legal", String(verdict.legal));
      const call = el("code", { text: `${this.out.chain.textContent}.view${tuple(shape)}` });
      if (verdict.legal) {
        out.setAttribute("data-stride", tuple(verdict.stride));
        out.append(call, " ", el("b", { class: "se-good", text: "legal" }), ": stride ",
          el("code", { "data-role": "view-stride", text: tuple(verdict.stride) }), ". ");
      } else {
        out.append(call, " ", el("b", { class: "se-bad", text: "illegal" }), ": ");
      }
      out.appendChild(el("span", { "data-role": "reason", text: verdict.reason }));
    }
  }

  function mountAll() {
    for (const root of document.querySelectorAll(".stride-explorer:not([data-mounted])")) {
      root.setAttribute("data-mounted", "true");
      root.explorer = new Explorer(root);
    }
  }

  window.StrideExplorer = {
    ViewError, contiguousStrides, contiguous, transpose, permute, slice: sliceDim, select, unsqueeze, expand,
    view, explainView, inferViewShape, isContiguous, storageIndices, overlaps, broadcastDims, parseOp, parseShape,
    opCode, applyOp, applyChain, tuple, PALETTE, mountAll,
  };
  mountAll();
})();

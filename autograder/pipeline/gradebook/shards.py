"""Which shard of a class this machine grades, from the job engine that started it.

``--shard auto`` reads the index and count that cluster and CI engines already give each task:

- this course, on any engine: ``AUTOGRAD_STATE_SHARD_INDEX`` (0-based), ``AUTOGRAD_STATE_SHARD_COUNT``;
- a Slurm job array: ``SLURM_ARRAY_TASK_ID`` (counted from ``SLURM_ARRAY_TASK_MIN`` in steps of
  ``SLURM_ARRAY_TASK_STEP``), ``SLURM_ARRAY_TASK_COUNT``;
- a Kubernetes Indexed Job: ``JOB_COMPLETION_INDEX``, and the count as ``--shard-count`` or
  ``AUTOGRAD_STATE_SHARD_COUNT`` (the Job's ``completions``: Kubernetes does not pass it to the pod);
- GitLab CI ``parallel:``: ``CI_NODE_INDEX`` (1-based), ``CI_NODE_TOTAL``;
- CircleCI ``parallelism``: ``CIRCLE_NODE_INDEX``, ``CIRCLE_NODE_TOTAL``;
- Buildkite ``parallelism``: ``BUILDKITE_PARALLEL_JOB``, ``BUILDKITE_PARALLEL_JOB_COUNT``.

A GitHub Actions matrix has no such variables: pass ``--shard ${{ matrix.shard }}/N``, or set the
course's own two variables from the matrix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


class ShardError(ValueError):
    """A shard that cannot be worked out; ``str()`` says what was looked for."""


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (0-based) of ``count``, and the engine it was read from."""

    index: int
    count: int
    engine: str

    def __str__(self) -> str:
        return f"shard {self.index}/{self.count} ({self.engine})"


def resolve(spec: str, environ: Mapping[str, str], count: int | None = None) -> Shard:
    """The shard named by ``--shard``: ``I/N`` as given, or ``auto`` from ``environ``.

    Args:
        spec: ``I/N`` or ``auto``.
        environ: The environment (``os.environ``).
        count: ``--shard-count``: the number of shards where the engine does not say it.

    Raises:
        ShardError: malformed, out of range, or no engine's variables found.
    """
    if spec != "auto":
        index, slash, total = spec.partition("/")
        if not slash or not index.isdigit() or not total.isdigit():
            raise ShardError(f"--shard {spec}: expected I/N (0 <= I < N) or auto")
        return _checked(int(index), int(total), "given")
    for engine, read in _ENGINES:
        found = read(environ, count)
        if found is not None:
            index, total = found
            return _checked(index, total, engine)
    raise ShardError("--shard auto: no shard in the environment (looked for AUTOGRAD_STATE_SHARD_INDEX, "
                     "SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, CI_NODE_INDEX, CIRCLE_NODE_INDEX, "
                     "BUILDKITE_PARALLEL_JOB)")


def _checked(index: int, count: int, engine: str) -> Shard:
    if not 0 <= index < count:
        raise ShardError(f"shard {index} of {count} from {engine}: expected 0 <= index < count")
    return Shard(index, count, engine)


def _number(environ: Mapping[str, str], name: str) -> int | None:
    value = environ.get(name, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise ShardError(f"{name}={value!r} is not a whole number") from None


def _needs(name: str, value: int | None, why: str) -> int:
    if value is None:
        raise ShardError(f"{why}, but {name} is not set")
    return value


def _course(environ: Mapping[str, str], count: int | None) -> tuple[int, int] | None:
    index = _number(environ, "AUTOGRAD_STATE_SHARD_INDEX")
    if index is None:
        return None
    total = count or _number(environ, "AUTOGRAD_STATE_SHARD_COUNT")
    return index, _needs("AUTOGRAD_STATE_SHARD_COUNT", total, "AUTOGRAD_STATE_SHARD_INDEX is set")


def _slurm(environ: Mapping[str, str], count: int | None) -> tuple[int, int] | None:
    task = _number(environ, "SLURM_ARRAY_TASK_ID")
    if task is None:
        return None
    low = _number(environ, "SLURM_ARRAY_TASK_MIN") or 0
    step = _number(environ, "SLURM_ARRAY_TASK_STEP") or 1
    total = _needs("SLURM_ARRAY_TASK_COUNT", _number(environ, "SLURM_ARRAY_TASK_COUNT"),
                   "SLURM_ARRAY_TASK_ID is set")
    if (task - low) % step:
        raise ShardError(f"SLURM_ARRAY_TASK_ID={task} is not on the array's step {step} from {low}")
    return (task - low) // step, total


def _kubernetes(environ: Mapping[str, str], count: int | None) -> tuple[int, int] | None:
    index = _number(environ, "JOB_COMPLETION_INDEX")
    if index is None:
        return None
    total = count or _number(environ, "AUTOGRAD_STATE_SHARD_COUNT")
    return index, _needs("AUTOGRAD_STATE_SHARD_COUNT (or --shard-count)", total,
                         "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job)")


def _pair(index_name: str, count_name: str, base: int):
    def read(environ: Mapping[str, str], count: int | None) -> tuple[int, int] | None:
        index = _number(environ, index_name)
        if index is None:
            return None
        return index - base, _needs(count_name, _number(environ, count_name), f"{index_name} is set")
    return read


_ENGINES = (
    ("AUTOGRAD_STATE_SHARD_INDEX", _course),
    ("Slurm job array", _slurm),
    ("Kubernetes Indexed Job", _kubernetes),
    ("GitLab CI parallel", _pair("CI_NODE_INDEX", "CI_NODE_TOTAL", 1)),
    ("CircleCI parallelism", _pair("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0)),
    ("Buildkite parallelism", _pair("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0)),
)

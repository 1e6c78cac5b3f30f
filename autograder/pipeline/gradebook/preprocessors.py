"""nbgrader preprocessors the sandboxed grader puts in place of nbgrader's own.

``SandboxVerdicts`` stands where ``Execute`` stands (outputs come from the trusted checker, never
from running the notebook); ``CheckCellMetadataOnce`` is ``CheckCellMetadata`` with its JSON schema
compiled once. The preprocessors that reach the gradebook are in :mod:`autograder.pipeline.gradebook.recorder`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import fastjsonschema
from nbgrader.nbgraderformat import MetadataValidator, ValidationError
from nbgrader.nbgraderformat.common import BaseMetadataValidator
from nbgrader.preprocessors import CheckCellMetadata, NbGraderPreprocessor

from autograder.pipeline.grading.verdict import Verdict


class SandboxVerdicts(NbGraderPreprocessor):
    """Stands where nbgrader's ``Execute`` stands: outputs come from the trusted checker's verdict."""

    decided: ClassVar[dict[str, Verdict]] = {}

    def preprocess(self, nb, resources):
        student = resources["nbgrader"]["student"]
        verdict = self.decided[student]
        for cell in nb.cells:
            grade_id = (cell.metadata.get("nbgrader") or {}).get("grade_id")
            if cell.cell_type != "code":
                continue
            if grade_id in verdict.tests:
                cell.outputs = verdict.tests[grade_id].outputs()
            else:
                cell.outputs = verdict.outputs.get(grade_id, [])
        return nb, resources


class _CompiledSchema(BaseMetadataValidator):
    """The schema check of nbgrader's ``BaseMetadataValidator.validate_cell``, its (constant) JSON
    schema compiled once.

    ``jsonschema.validate`` re-checks the schema itself on every call: for a chapter of 76 cells,
    twice per submission, that is half of nbgrader's own time per submission. Here the schema is
    compiled once with fastjsonschema (as nbformat compiles its own); a cell it refuses raises
    jsonschema's ``ValidationError``, as nbgrader's check does. The checks are made in the same
    order: the schema version first, then the schema.
    """

    _compiled: ClassVar[dict[int, Callable[[dict], object]]] = {}

    def validate_cell(self, cell) -> None:
        if "nbgrader" not in cell.metadata:
            return
        if cell.metadata["nbgrader"].get("schema_version", 0) != self.schema_version:
            super().validate_cell(cell)  # raises nbgrader's own schema-version error
        if self.schema_version not in self._compiled:
            self._compiled[self.schema_version] = fastjsonschema.compile(self.schema)
        try:
            self._compiled[self.schema_version](cell.metadata["nbgrader"])
        except fastjsonschema.JsonSchemaException as err:
            raise ValidationError(err.message) from err


class _MetadataValidator(MetadataValidator, _CompiledSchema):
    """nbgrader's metadata validator, every check its own (grade ids, points, cell kinds, duplicate
    ids), with :class:`_CompiledSchema` as the schema check it calls up to."""


class CheckCellMetadataOnce(CheckCellMetadata):
    """nbgrader's ``CheckCellMetadata`` using :class:`_MetadataValidator`."""

    def preprocess(self, nb, resources):
        try:
            _MetadataValidator().validate_nb(nb)
        except ValidationError as err:
            self.log.error("Notebook failed to validate; the nbgrader metadata may be corrupted.")
            raise ValidationError("Notebook failed to validate; the nbgrader metadata may be corrupted.") from err
        return nb, resources

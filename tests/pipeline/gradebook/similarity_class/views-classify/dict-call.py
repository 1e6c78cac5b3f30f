CLASSIFY = dict(
    unflatten="view", index_select="copy", broadcast_to="view", repeat="copy", ravel="ambiguous",
    diag="copy", view_dtype="view", flip="copy", reshape_as="ambiguous", atleast_3d="view",
)

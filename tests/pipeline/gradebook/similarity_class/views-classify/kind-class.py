class Kind:
    VIEW = "view"
    COPY = "copy"
    DEPENDS = "ambiguous"


CLASSIFY = {
    "unflatten": Kind.VIEW,
    "index_select": Kind.COPY,
    "broadcast_to": Kind.VIEW,
    "repeat": Kind.COPY,
    "ravel": Kind.DEPENDS,
    "diag": Kind.COPY,
    "view_dtype": Kind.VIEW,
    "flip": Kind.COPY,
    "reshape_as": Kind.DEPENDS,
    "atleast_3d": Kind.VIEW,
}

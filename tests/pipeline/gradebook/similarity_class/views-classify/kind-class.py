class Kind:
    VIEW = "view"
    COPY = "copy"
    DEPENDS = "ambiguous"


CLASSIFY = {
    "transpose": Kind.VIEW,
    "basic_slice": Kind.VIEW,
    "advanced_index": Kind.COPY,
    "boolean_mask": Kind.COPY,
    "view": Kind.VIEW,
    "reshape": Kind.DEPENDS,
    "contiguous": Kind.DEPENDS,
    "expand": Kind.VIEW,
    "clone": Kind.COPY,
    "detach": Kind.VIEW,
}

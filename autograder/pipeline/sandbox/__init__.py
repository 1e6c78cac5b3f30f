"""Running untrusted cells: the zygote pool, the held prefix, the confined child, the wire."""

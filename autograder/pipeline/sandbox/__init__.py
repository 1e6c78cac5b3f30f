"""Running untrusted cells: the zygote pool, the held prefix, the launch of the confined child, the
child itself, the wire."""

"""Maintainers' tools that read the course's own source."""

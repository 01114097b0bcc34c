"""Bounded input: files read with a size cap (regular files only) and YAML composed within an expansion budget.

Every file a user names (fleet spec, collectors CSV, web config, certificates, secrets) and every YAML document
goes through here, so a device file, a huge file or a "billion laughs" document ends in one clear line instead of
a hang or unbounded memory.
"""

from gpuscope.inputs.files import MAX_CONFIG_BYTES, MAX_SECRET_BYTES, MissingFile, read_text
from gpuscope.inputs.yamltree import MAX_DEPTH, MAX_NODES, compose, load

__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_SECRET_BYTES",
    "MissingFile",
    "compose",
    "load",
    "read_text",
]

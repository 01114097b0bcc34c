"""Slurm (HPC) job mapping files, as dcgm-exporter reads them (``--hpc-job-mapping-dir``).

A job scheduler's prolog writes one file per GPU into the mapping directory, named ``<gpu>`` (the GPU index) or
``<gpu>.<gi>`` (a MIG GPU instance), holding one job id per line; its epilog removes it. Other names are ignored,
and so are blank lines (dcgm-exporter keeps them and exports ``hpc_job=""``).
"""

from __future__ import annotations

import os
import re

from gpuscope.exporter.workloads.model import Target
from gpuscope.inputs.files import read_head

_NAME = re.compile(r"(\d+)(?:\.(\d+))?")
_MAX_FILE = 64 * 1024  # a mapping file is a few job ids; never read a stray large file whole


def read_job_dir(path: str) -> dict[Target, tuple[str, ...]]:
    """Job ids per GPU target; raises ``OSError`` when the directory itself cannot be read."""
    jobs: dict[Target, tuple[str, ...]] = {}
    with os.scandir(path) as entries:
        for entry in entries:
            match = _NAME.fullmatch(entry.name)
            if match is None or not entry.is_file():
                continue
            try:  # non-blocking, regular files only: a FIFO named "0" never holds the collection
                text = read_head(entry.path, _MAX_FILE).decode("utf-8", "replace")
            except OSError:
                continue  # removed by an epilog between listing and reading (the job has ended), or no file
            ids = tuple(dict.fromkeys(line.strip() for line in text.splitlines() if line.strip()))
            if ids:
                jobs[(int(match[1]), None if match[2] is None else int(match[2]))] = ids
    return jobs

"""Slurm (HPC) job mapping files, as dcgm-exporter reads them (``--hpc-job-mapping-dir``).

A job scheduler's prolog writes one file per GPU into the mapping directory, named ``<gpu>`` (the GPU index) or
``<gpu>.<gi>`` (a MIG GPU instance), holding one job id per line; its epilog removes it. Other names are ignored,
and so are blank lines (dcgm-exporter keeps them and exports ``hpc_job=""``).

dcgm-exporter (``internal/pkg/transformation/hpc.go``) matches names with Go's ``^\\d+(\\.\\d+)?$``, where ``\\d`` is
ASCII only, and looks the name up as a string against the GPU's index, so ``01`` never names GPU 1: the same here
(``[0-9]``, no leading zero; an Arabic-Indic ``3`` or a fullwidth ``4`` is no GPU index, though Python's ``\\d`` and
``int`` take them).

The directory is written by the scheduler's prolog, and the exporter runs as root: every file is opened by name
inside the directory (``dir_fd``), without following a symbolic link (``O_NOFOLLOW``), and must be a regular file,
so a link to ``/etc/shadow`` never shows its lines as ``hpc_job`` values on ``/metrics``. What is read is bounded:
``MAX_FILES`` mapping files, ``MAX_FILE_BYTES`` of each, ``MAX_JOBS_PER_GPU`` ids per GPU of ``MAX_JOB_ID_CHARS``
each (a Slurm job id is a number, an array or heterogeneous job's a little more), so a file of 64 KiB of ids cannot
make a scrape of tens of MiB. What is left out past a bound is logged (once per file and problem, again when it
changes), never silently.
"""

from __future__ import annotations

import logging
import os
import re

from gpuscope.exporter.attribution.resolve import Target
from gpuscope.inputs.files import read_head

log = logging.getLogger(__name__)

_NAME = re.compile(r"(0|[1-9][0-9]{0,5})(?:\.(0|[1-9][0-9]{0,5}))?", re.ASCII)
MAX_FILE_BYTES = 16 * 1024  # MAX_JOBS_PER_GPU ids of MAX_JOB_ID_CHARS fit twice; never read a stray file whole
MAX_FILES = 256  # 16 GPUs of 7 MIG instances each is 128 targets: so at most 4 MiB read per collection
MAX_JOBS_PER_GPU = 64  # jobs sharing one GPU (oversubscription, MPS): more are dropped and logged
MAX_JOB_ID_CHARS = 128
_said: dict[tuple[str, str], str] = {}  # (directory, file) -> the bound it last passed: logged once until it changes


def read_job_dir(path: str) -> dict[Target, tuple[str, ...]]:
    """Job ids per GPU target; raises ``OSError`` when the directory itself cannot be read."""
    jobs: dict[Target, tuple[str, ...]] = {}
    problems: dict[str, str] = {}
    dir_fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        with os.scandir(dir_fd) as entries:
            for entry in entries:
                match = _NAME.fullmatch(entry.name)
                if match is None or not entry.is_file(follow_symlinks=False):
                    continue  # a symbolic link, directory, FIFO or device is never a mapping file
                if len(jobs) >= MAX_FILES:
                    problems["*"] = f"more than {MAX_FILES} mapping files: the rest are not read"
                    break
                try:  # by name in the directory, no link followed, regular files only, non-blocking
                    data = read_head(entry.name, MAX_FILE_BYTES + 1, dir_fd=dir_fd, follow_links=False)
                except OSError:
                    continue  # removed by an epilog between listing and reading (the job has ended), or no file
                ids = _job_ids(data, entry.name, problems)
                if ids:
                    jobs[(int(match[1]), None if match[2] is None else int(match[2]))] = ids
    finally:
        os.close(dir_fd)
    _say(path, problems)
    return jobs


def _job_ids(data: bytes, name: str, problems: dict[str, str]) -> tuple[str, ...]:
    if len(data) > MAX_FILE_BYTES:  # the cut may split a line: only whole lines are kept
        data = data[:MAX_FILE_BYTES].rpartition(b"\n")[0]
        problems[name] = f"over {MAX_FILE_BYTES} bytes: only its first {MAX_FILE_BYTES} are read"
    text = data.decode("utf-8", "replace")
    ids: dict[str, None] = {}
    for line in text.splitlines():
        job = line.strip()
        if not job:
            continue
        if len(job) > MAX_JOB_ID_CHARS:
            problems[name] = f"a line of {len(job)} characters, over {MAX_JOB_ID_CHARS}: not a job id, left out"
            continue
        if len(ids) >= MAX_JOBS_PER_GPU and job not in ids:
            problems[name] = f"more than {MAX_JOBS_PER_GPU} job ids: the first {MAX_JOBS_PER_GPU} are kept"
            break
        ids[job] = None
    return tuple(ids)


def _say(path: str, problems: dict[str, str]) -> None:
    for key in [k for k in _said if k[0] == path and k[1] not in problems]:
        del _said[key]
    for name, problem in problems.items():
        if _said.get((path, name)) != problem:
            _said[(path, name)] = problem
            log.warning("HPC job mapping file %s (--hpc-job-mapping-dir): %s", os.path.join(path, name), problem)

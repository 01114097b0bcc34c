"""``gpuscope selftest``: compare the nvml backend with nvidia-smi on this machine's GPUs, under load."""

from __future__ import annotations

from typing import Annotated

import typer

from gpuscope.cli._app import app


@app.command("selftest")
def selftest_command(
    seconds: Annotated[float, typer.Option("--seconds", min=10, help="How long to run (with load).")] = 30.0,
    no_load: Annotated[bool, typer.Option("--no-load", help="Do not start the matrix-multiply load.")] = False,
) -> int:
    """Check gpuscope's NVML readings against nvidia-smi on a real NVIDIA GPU; exit 1 on a mismatch."""
    from gpuscope.backends.nvml import NvmlBackend
    from gpuscope.selftest import Plan, query_apps, query_smi, require_gpu, run_selftest, start_load

    require_gpu()
    backend = NvmlBackend()
    try:
        return run_selftest(
            backend,
            query_smi,
            plan=Plan(seconds=seconds),
            load=(lambda _s: None) if no_load else start_load,
            echo=typer.echo,
            apps=query_apps,
        )
    finally:
        backend.close()

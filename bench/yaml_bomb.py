"""Peak memory of loading a "billion laughs" fleet spec: the bounded loader against a naive walk of the same tree.

Each side runs in its own process under an address-space limit (RLIMIT_AS, default 2 GiB), so the unbounded side
ends in MemoryError instead of taking the machine down. The naive side is what any builder that follows aliases
does (the spec loader's positioned builder did before ``gpuscope.inputs``): it visits every expanded node.
Usage: ``python bench/yaml_bomb.py [--levels 9] [--limit-mib 2048]``.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_CHILD = r"""
import resource, sys, time
sys.path.insert(0, sys.argv[2])
text = sys.stdin.read()
start = time.monotonic()
try:
    if sys.argv[1] == "naive":
        import yaml

        def walk(node):
            if isinstance(node, yaml.MappingNode):
                return {walk(k): walk(v) for k, v in node.value}
            if isinstance(node, yaml.SequenceNode):
                return [walk(item) for item in node.value]
            return node.value

        walk(yaml.compose(text, Loader=yaml.SafeLoader))
    else:
        from gpuscope.spec.fleet import FleetSpec
        from gpuscope.spec.source import parse_yaml_model

        parse_yaml_model(text, "bomb.yaml", FleetSpec)
    outcome = "loaded"
except MemoryError:
    outcome = "MemoryError"
except Exception as exc:
    outcome = f"refused: {str(exc)[:70]}"
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{sys.argv[1]:8} peak RSS {peak:7.0f} MiB  {time.monotonic() - start:6.1f} s  {outcome}")
"""


def bomb(levels: int) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    names = "abcdefghijklmnopqrstuvwxyz"
    for i in range(1, levels):
        lines.append(f"{names[i]}: &{names[i]} [{','.join([f'*{names[i - 1]}'] * 9)}]")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=9)
    parser.add_argument("--limit-mib", type=int, default=2048)
    args = parser.parse_args()
    text = bomb(args.levels)
    limit = args.limit_mib * 1024 * 1024

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    print(f"{len(text.encode())}-byte document, {args.levels} levels of 9 aliases, RLIMIT_AS {args.limit_mib} MiB")
    for side in ("bounded", "naive"):
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, side, str(REPO / "src")],
            input=text,
            capture_output=True,
            text=True,
            preexec_fn=cap,
            check=False,
        )
        print(done.stdout.strip() or done.stderr.strip().splitlines()[-1])


if __name__ == "__main__":
    main()

"""Coverage-guided fuzzing of the YAML loader with atheris (libFuzzer).

    python fuzz/atheris_yaml.py --seconds 60

Needs the ``fuzz`` extra (``pip install -e '.[fuzz]'``). The corpus starts from the
example YAML files. Each input is decoded as UTF-8 and parsed by
:func:`fracas.yamlfile.parse_yaml`; the result must be plain JSON data, and a
refusal a :class:`~fracas.yamlfile.CampaignError` whose every line names the file.
libFuzzer runs in a child process with a 5 s timeout and a 1 GB memory limit; after
a crash it is started again until the time is up. The last line printed is the JSON
summary every harness in fuzz/ prints.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "fuzz" / "atheris_yaml"
NAME = "fuzz.yaml"


def child(stats_path: str, libfuzzer_args: list[str]) -> None:
    import atheris

    # PyYAML is imported uninstrumented: atheris 2.3's bytecode rewriting breaks its
    # scanner on Python 3.11 ("'str' object has no attribute 'prefix'" in
    # scan_flow_scalar_breaks, an input the plain loader refuses properly), so the
    # coverage that guides the fuzzer is fracas's own loader.
    import pydantic  # noqa: F401
    import yaml  # noqa: F401

    with atheris.instrument_imports(include=["fracas"]):
        from fracas.yamlfile import CampaignError, parse_yaml

    stats = {"runs": 0, "slowest_s": 0.0}

    def write_stats() -> None:
        Path(stats_path).write_text(json.dumps(stats), encoding="utf-8")

    def test_one_input(data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        start = time.perf_counter()
        try:
            document = parse_yaml(text, NAME)
            json.dumps(document.data, allow_nan=False)
        except CampaignError as err:
            for line in str(err).splitlines():
                assert line.startswith(NAME), line
        elapsed = time.perf_counter() - start
        stats["runs"] += 1
        if elapsed > stats["slowest_s"] or stats["runs"] % 1000 == 0:
            stats["slowest_s"] = max(stats["slowest_s"], elapsed)
            write_stats()

    atheris.Setup([sys.argv[0], *libfuzzer_args], test_one_input)
    atheris.Fuzz()


def main() -> None:
    parser = argparse.ArgumentParser(description="atheris harness for the YAML loader")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.child is not None:
        child(args.child, rest)
        return
    corpus = OUT / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for path in sorted((ROOT / "examples").glob("*/*.yaml")):
        shutil.copy(path, corpus / f"{path.parent.name}-{path.name}")
    stats_path = OUT / "stats.json"
    inputs = failures = 0
    slowest = max_rss = 0.0
    deadline = time.monotonic() + args.seconds
    while (left := int(deadline - time.monotonic())) >= 1:
        stats_path.unlink(missing_ok=True)
        command = [
            sys.executable,
            __file__,
            "--child",
            str(stats_path),
            f"-max_total_time={left}",
            "-timeout=5",
            "-rss_limit_mb=1024",
            "-print_final_stats=1",
            f"-artifact_prefix={OUT}/",
            str(corpus),
        ]
        done = subprocess.run(command, capture_output=True, text=True, env=os.environ)
        if done.returncode != 0:
            failures += 1
            print(done.stderr[-3000:], file=sys.stderr)
        if stats_path.exists():
            stats = json.loads(stats_path.read_text(encoding="utf-8"))
            slowest = max(slowest, float(stats["slowest_s"]))
        runs = re.findall(r"stat::number_of_executed_units: (\d+)", done.stderr)
        inputs += int(runs[-1]) if runs else 0
        for rss in re.findall(r"rss: (\d+)Mb", done.stderr):
            max_rss = max(max_rss, float(rss))
        if "ERROR: libFuzzer: timeout" in done.stderr:
            slowest = max(slowest, 5.0)
    result = {
        "harness": "atheris_yaml",
        "inputs": inputs,
        "failures": failures,
        "slowest_s": round(slowest, 3),
        "max_rss_mb": max_rss,
    }
    print(json.dumps(result))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

"""The Makefile's tests: a scratch copy of what it reads, and ``make`` run there with a
stand-in interpreter that records each notebook run instead of doing it."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from compendium import paths

__all__ = ["make_runs", "make_says", "scratch_copy"]

#: The stand-in interpreter: records a run of the tooling's modules (``-m compendium.notebooks
#: <paper>`` runs a notebook) instead of doing it, but for the dependency stamps (``-m
#: compendium.depends``); runs anything else with Python.
#: Each notebook run also appends its start time, its arguments and its end time to
#: ``$RUNS.args``, and lasts ``$RUN_SECONDS`` (default 0).
RUNNER = """#!/bin/sh
if [ "$1 $2" = "-m compendium.depends" ]; then exec {python} "$@"; fi
if [ "$1 $2" = "-m compendium.notebooks" ] && [ "$3" != publish ]; then
    echo "start $(date +%s.%N) $*" >> "$RUNS.args"; sleep "${{RUN_SECONDS:-0}}"
    echo "end $(date +%s.%N) $3" >> "$RUNS.args"
fi
if [ "$1" = "-m" ]; then echo "$3" >> "$RUNS"; exit 0; fi
exec {python} "$@"
"""


def scratch_copy(root):
    """Copy to ``root`` what the Makefile reads (the Makefile, lib/, the notebooks and
    data/ but raw data) and write the stand-in interpreter ``root/python``."""
    read = ("Makefile", "pyproject.toml", "requirements/constraints.txt", "data/registry.toml")
    files = [paths.ROOT / name for name in (*read, "data/papers.toml")]
    for folder, pattern in (("lib", "*.py"), ("notebooks", "*.ipynb"), ("data/published", "*")):
        files += [p for p in (paths.ROOT / folder).rglob(pattern) if "__pycache__" not in p.parts]
    for path in filter(Path.is_file, files):
        copy = root / path.relative_to(paths.ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
    runner = root / "python"
    runner.write_text(RUNNER.format(python=sys.executable))
    runner.chmod(0o755)
    return root


def make_runs(root, *arguments):
    """Run ``make -s arguments`` in the scratch copy ``root``; the papers whose notebook it
    ran, sorted."""
    return make_says(root, *arguments)[0]


def make_says(root, *arguments):
    """Run ``make -s arguments`` in the scratch copy ``root``; the papers whose notebook it
    ran (sorted) and the lines it printed."""
    runs = root / "runs.log"
    env = {**os.environ, "VIRTUAL_ENV": str(root), "RUNS": str(runs)}
    command = ["make", "-s", f"PYTHON={root / 'python'}", *arguments]
    done = subprocess.run(command, cwd=root, env=env, check=True, capture_output=True, text=True)
    time.sleep(0.05)  # file times tick coarsely: an edit must come after the last stamp
    ran = runs.read_text().split() if runs.exists() else []
    runs.unlink(missing_ok=True)
    return sorted(ran), done.stdout.splitlines()

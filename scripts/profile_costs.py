"""Where the full run's time goes: the compendium's longest steps sampled with py-spy and
attributed to the code that spent it (a measurement script: not a test, not a CI step).

Every step of at least 100 s in the committed ledgers (``figures/<paper>/cost.csv``;
:data:`JOBS` lists them) is run again at the paper's settings in a process of
its own, with py-spy attached to it and its joblib workers (``--native
--subprocesses``) for the step only: the data loading and the steps it needs first are
not sampled. Where a step repeats one unit of work (draws, seeds, runs, epochs), fewer
repetitions are run (:data:`JOBS` says which); the two longest t-SNE steps of the AwA2
survey are sampled for their first :data:`WINDOW` seconds. Each step's samples are
attributed with :mod:`compendium.attribution`, and its shares are applied to
the step's wall time in the committed ledger, so the minutes add up to the ledger's.
Sampling slows the processes (py-spy stops them to read their native stacks), so only the
shares are used, never the sampled times; each step is sampled once, at :data:`RATE`
samples per second and thread.

    python scripts/profile_costs.py [--jobs NAME ...] [--reuse]

It writes ``figures/cost_attribution.{csv,md}`` (each sampled step's samples and shares
per owner); ``python -m compendium.pages`` applies them to the ledgers in
``figures/REPRODUCTION.md`` and the book's ``docs/running.md``. py-spy is not a dependency of the
compendium: ``pip install py-spy`` first (``PY_SPY`` names another executable; the
committed shares were sampled with py-spy 0.4.3).
``--reuse`` skips the jobs whose samples are already in ``build/profile``.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pandas as pd
import psutil

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "profile"
FIGURES = ROOT / "figures"
#: Samples per second and thread.
RATE = 10
#: Seconds sampled of the steps that are cut short.
WINDOW = 120


# ------------------------------------------------------------------------ the steps
def _published(module):
    from compendium.published import load_published

    return load_published(module.PAPER)


def relevance_learning(profile):
    from papers import relevance_learning as protocol

    p, published = protocol.params(False), _published(protocol)
    data = protocol.load_data(p)
    profile("table1_sensitivity", lambda: protocol.table1_sensitivity(data, published, p))
    p = replace(p, usps_draws=2)
    profile("table2_usps_errors", lambda: protocol.table2_usps(data, published, p))


def metrical_importance(profile):
    from papers import metrical_importance as mi

    p, published = mi.params(False), _published(mi)
    data = mi.load_numberings()["paper"]
    p = replace(p, n_seeds=2, n_rf_runs=10)

    def importances():
        imps = mi.importances_by_seed(data, p)
        mi.importance_artefacts(data, imps, published)
        return imps

    imps = profile("table1_discard_orders", importances)
    curves = lambda: mi.curve_artefacts(mi.discard_curves_by_dataset(data, imps, p), published)  # noqa: E731
    profile("fig3_discard_curves", curves)


def cross_paper(profile):
    from papers import cross_paper as protocol

    p = replace(protocol.params(False), map_draws=2, n_partitions=6)
    published, data = _published(protocol), protocol.load_data(p)
    profile("league_partitions", lambda: protocol.league_artefacts(data, published, p))

    def maps():
        scored = protocol.maps_of(data, p)
        protocol.map_artefacts(data, scored, p)
        return scored

    scored = profile("map_scores", maps)
    profile("agreement_seeds", lambda: protocol.agreement_artefacts(data, scored, p))


def _awa2(step):
    def job(profile):
        from papers import awa2_dr_survey as protocol

        p, published = protocol.params(False), _published(protocol)
        data = protocol.load_data(p)
        calls = {
            "table7": (protocol.tables7_9_tsne, {}),
            "table8": (protocol.table8_tsne_preprocessing, {}),
            "leak_by_ratio": (protocol.leak_by_ratio, {"leak_draws": 2}),
            "table13": (protocol.table13_autoencoder, {"ae_epochs": 10}),
        }
        function, changes = calls[step]
        q = replace(p, **changes)
        profile(step, lambda: function(data, published, q), WINDOW if step in WINDOWED else None)

    return job


def bvp(profile):
    from papers import bvp as protocol

    p, published = protocol.params(False), _published(protocol)
    sweep = lambda: protocol.sweep_artefacts(protocol.tsne_sweeps(p), published)  # noqa: E731
    profile("tsne_perplexity_sweep", sweep)
    profile("swiss_roll_sensitivity", lambda: protocol.sensitivity_artefacts(p))


def orml(profile):
    from papers import orml as protocol

    p, published, data = protocol.params(False), _published(protocol), protocol.load_data()
    profile("table2_usps", lambda: protocol.usps_artefacts(data, published, p))


WINDOWED = ("table7", "table8")
#: Jobs, one process each: name -> (paper, function).
JOBS = {
    "relevance_learning": ("relevance_learning", relevance_learning),
    "metrical_importance": ("metrical_importance", metrical_importance),
    "cross_paper": ("cross_paper", cross_paper),
    "awa2_table7": ("awa2_dr_survey", _awa2("table7")),
    "awa2_table8": ("awa2_dr_survey", _awa2("table8")),
    "awa2_leak": ("awa2_dr_survey", _awa2("leak_by_ratio")),
    "awa2_table13": ("awa2_dr_survey", _awa2("table13")),
    "bvp": ("bvp", bvp),
    "orml": ("orml", orml),
}
#: What a sampled step ran, where it is not the step as the paper's run ran it.
SAMPLED_AS = {
    "relevance_learning:table2_usps_errors": "2 USPS draws of 10",
    "metrical_importance:table1_discard_orders": "2 seeds of 10",
    "metrical_importance:fig3_discard_curves": "10 forest runs of 100 (orders of 2 seeds)",
    "cross_paper:league_partitions": "6 partitions of 30",
    "cross_paper:map_scores": "2 draws of 10",
    "cross_paper:agreement_seeds": "2 draws of 10",
    "awa2_dr_survey:table7": f"its first {WINDOW} s",
    "awa2_dr_survey:table8": f"its first {WINDOW} s",
    "awa2_dr_survey:leak_by_ratio": "2 draws of 10",
    "awa2_dr_survey:table13": "10 epochs of 50",
}


# --------------------------------------------------------------------------- sampling
def _py_spy():
    beside = Path(sys.executable).with_name("py-spy")
    found = os.environ.get("PY_SPY") or shutil.which("py-spy") or (beside.exists() and beside)
    if not found:
        sys.exit("py-spy is needed: pip install py-spy (or set PY_SPY).")
    return found


def _sampler(paper):
    """``profile(step, thunk, seconds=None)``: run ``thunk`` with py-spy attached to
    this process and its workers, its samples written to ``build/profile``."""

    def profile(step, thunk, seconds=None):
        raw = OUT / f"{paper}__{step}.txt"
        command = [_py_spy(), "record", "--pid", str(os.getpid()), "--subprocesses"]
        command += ["--native", "--rate", str(RATE), "--format", "raw", "--output", str(raw)]
        spy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        done = threading.Event()
        if seconds is not None:
            timer = threading.Timer(seconds, _cut_short, (spy, raw, done))
            timer.daemon = True
            timer.start()
        print(f"sampling {paper}: {step}", flush=True)
        try:
            return thunk()
        finally:
            done.set()
            _stop(spy, raw)

    return profile


def _stop(spy, raw):
    spy.send_signal(signal.SIGINT)
    _, errors = spy.communicate()
    if not raw.exists():
        raise RuntimeError(f"py-spy wrote no samples to {raw}: {errors.decode()[-500:]}")


def _cut_short(spy, raw, done):
    """End a step sampled for a window only: its samples are written, then this process
    and its workers end (unless the step ended first)."""
    if done.is_set():
        return
    _stop(spy, raw)
    for child in psutil.Process().children(recursive=True):
        child.kill()
    os._exit(0)


def run_job(name):
    """Run one job in this process."""
    paper, function = JOBS[name]
    function(_sampler(paper))


# ------------------------------------------------------------------------ attribution
def shares_table():
    """Each sampled step's samples and shares per owner (``build/profile``)."""
    from compendium.attribution import attribute, group_of, read_raw

    rows = []
    for raw in sorted(OUT.glob("*__*.txt")):
        paper, step = raw.stem.split("__")
        counts = attribute(read_raw(raw))
        for (name, kind), samples in counts.items():
            rows.append(
                {"paper": paper, "step": step, "owner": name, "kernel": kind,
                 "group": group_of(name), "samples": int(samples),
                 "share": samples / counts.sum(),
                 "sampled_as": SAMPLED_AS.get(f"{paper}:{step}", "as run")}
            )  # fmt: skip
    return pd.DataFrame(rows)


def write(shares):
    """``figures/cost_attribution.{csv,md}``; print the summary the report will show."""
    from compendium.pages import cost_attribution
    from compendium.reporting import COST_DATA, write_table

    write_table(shares.round({"share": 4}), FIGURES / "cost_attribution", False, COST_DATA)
    print(cost_attribution(FIGURES))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", nargs="*", default=list(JOBS), choices=list(JOBS))
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--run", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        return run_job(args.run)
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.jobs:
        done = OUT / f"{name}.done"
        if args.reuse and done.exists():
            continue
        subprocess.run([sys.executable, __file__, "--run", name], check=True, cwd=ROOT)
        done.touch()
    write(shares_table())


if __name__ == "__main__":
    main()

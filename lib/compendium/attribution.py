"""Where a run's CPU time goes: a sampling profiler's stacks attributed to the code that
spent them.

``scripts/profile_costs.py`` samples the compendium's longest steps with py-spy
(``--native --subprocesses``, its ``raw`` output: one line per distinct stack,
outermost frame first, frames separated by ``;``, then the number of samples). This
module decides, for each sample, whose code spent it:

* the **owner** of a stack is the package of its innermost frame that is not array
  arithmetic or the runtime (:data:`VOCABULARY`: NumPy, SciPy, BLAS/LAPACK, OpenMP,
  the C library, the interpreter). NumPy and BLAS called from :mod:`dimred` are
  :mod:`dimred`'s time; scikit-learn's compiled tree builder called from
  :func:`papers.metrical_importance.forest.forest_proba` is scikit-learn's;
* a stack with no owner at all is a thread of BLAS's own pool (``"BLAS threads"``,
  started by whoever called it, which the sample does not say) or the interpreter's
  housekeeping (``"runtime"``);
* the **kernel** of a sample is what its innermost frame runs (:func:`kernel`): BLAS,
  the C math library's ``exp`` and ``log``, NumPy's compiled loops, other compiled code
  or the Python interpreter; it splits an owner's time into the arithmetic whose
  results set the numbers (BLAS products, ``exp``) and the passes around it;
* a thread blocked on a lock, a semaphore or a poll (:data:`WAITING`, among its
  innermost frames) spends no CPU: py-spy leaves most idle threads out, the few it
  samples are ``"waiting"`` and :func:`attribute` leaves them out too.

:data:`GROUPS` sorts the owners into the compendium's own code, the libraries whose
implementations define a table's numbers (a faster computation there would have to
give the same numbers, as :mod:`papers.metrical_importance.forest` does for the forest), and
orchestration (joblib's dispatch and pickling, pandas, plotting, imports).
"""

import pandas as pd

__all__ = [
    "GROUPS",
    "OWNERS",
    "VOCABULARY",
    "WAITING",
    "attribute",
    "attributed_minutes",
    "group_of",
    "kernel",
    "owner",
    "read_raw",
    "render_attribution",
]

#: Owners recognised in a frame's file or library (first match wins).
OWNERS = (
    ("dimred/", "dimred"),
    ("sklearn/", "scikit-learn"),
    ("shap/", "shap"),
    ("torch/", "torch"),
    ("xgboost", "xgboost"),
    ("openTSNE", "openTSNE"),
    ("skordinal/", "skordinal"),
    ("matplotlib", "matplotlib"),
    ("pandas/", "pandas"),
    ("joblib/", "joblib"),
    ("loky", "joblib"),
    ("pickle", "joblib"),
    ("tqdm", "tqdm"),
    ("importlib", "imports"),
)
#: Frames whose time belongs to their caller: array arithmetic, BLAS and LAPACK, OpenMP,
#: the C and C++ runtimes, the interpreter and the standard library's plumbing.
VOCABULARY = (
    "numpy",
    "scipy",
    "openblas",
    "libgomp",
    "libm.",
    "libc.",
    "libpython",
    "ld-linux",
    "libstdc++",
    "libgcc",
    "threading.py",
    "functools.py",
    "contextlib.py",
    "warnings.py",
)
#: Function names of a blocked thread's innermost frames.
WAITING = ("acquire_lock", "sem_wait", "sem_timedwait", "pthread_cond", "poll", "nanosleep")
#: How many innermost frames :data:`WAITING` is looked for in.
WAITING_DEPTH = 4
#: Owner -> group.
GROUPS = {
    "dimred": "compendium (dimred)",
    "scikit-learn": "libraries",
    "shap": "libraries",
    "torch": "libraries",
    "xgboost": "libraries",
    "openTSNE": "libraries",
    "skordinal": "libraries",
}
ORCHESTRATION = "orchestration and unattributed"
#: Owner and group of a ledger step that was not sampled.
NOT_SAMPLED = "not sampled"


def _location(frame):
    """The file or library of a frame ``"name (file:line)"`` or ``"name (lib.so)"``."""
    return frame.rpartition(" (")[2].rstrip(")") if frame.endswith(")") else ""


def _matches(where, pattern):
    """Whether a location holds ``pattern``: a folder (``"name/"``) as a path component,
    anything else as a substring."""
    if pattern.endswith("/"):
        return where.startswith(pattern) or f"/{pattern}" in where
    return pattern in where


def owner(stack):
    """Whose code spent a sample (module docstring).

    Parameters
    ----------
    stack : sequence of str
        Frames, outermost first (py-spy's ``raw`` format, process frame included).

    Returns
    -------
    str
        An owner of :data:`OWNERS`, ``"other Python"`` (a Python file of neither
        list, e.g. the standard library), ``"BLAS threads"``, ``"runtime"`` or
        ``"waiting"``.
    """
    names = [frame.partition(" (")[0] for frame in stack[-WAITING_DEPTH:]]
    if any(word in name for name in names for word in WAITING):
        return "waiting"
    blas = False
    for frame in reversed(stack):
        where = _location(frame)
        for pattern, name in OWNERS:
            if _matches(where, pattern):
                return name
        if any(word in where for word in VOCABULARY):
            blas |= "openblas" in where
            continue
        if ".py:" in where:
            return "other Python"
    return "BLAS threads" if blas else "runtime"


def kernel(stack):
    """What the innermost frame of a sample runs: ``"BLAS"``, ``"libm (exp, log)"``,
    ``"NumPy loops"``, ``"other compiled"`` or ``"Python"``."""
    where = _location(stack[-1]) if stack else ""
    if "openblas" in where:
        return "BLAS"
    if "libm." in where:
        return "libm (exp, log)"
    if where.startswith("numpy/") or "/numpy/" in where:
        return "Python" if ".py:" in where else "NumPy loops"
    return "Python" if ".py:" in where or "<frozen" in where else "other compiled"


def group_of(name):
    """The group of an owner (:data:`GROUPS`; the rest is orchestration and unattributed)."""
    return GROUPS.get(name, ORCHESTRATION)


def read_raw(path):
    """py-spy's ``raw`` output as ``[(frames, samples), ...]``."""
    stacks = []
    for line in open(path, encoding="utf-8", errors="replace"):
        text, _, count = line.rstrip("\n").rpartition(" ")
        if text and count.isdigit():
            stacks.append((text.split(";"), int(count)))
    return stacks


def attribute(stacks):
    """Samples per owner.

    Parameters
    ----------
    stacks : iterable of (sequence of str, int)
        Frames (outermost first) and their samples (:func:`read_raw`).

    Returns
    -------
    Series
        Samples per owner and :func:`kernel` (a two-level index), largest first;
        ``"waiting"`` ones left out.
    """
    counts = {}
    for frames, samples in stacks:
        name = owner(frames)
        if name != "waiting":
            key = (name, kernel(frames))
            counts[key] = counts.get(key, 0) + samples
    index = pd.MultiIndex.from_tuples(counts, names=["owner", "kernel"])
    return pd.Series(list(counts.values()), index=index, dtype=float).sort_values(ascending=False)


def attributed_minutes(shares, ledgers):
    """Each ledger step's wall time split by the shares of its samples.

    Parameters
    ----------
    shares : DataFrame
        ``paper``, ``step``, ``owner``, ``kernel``, ``group``, ``share``
        (``cost_attribution.csv``, written by ``scripts/profile_costs.py``).
    ledgers : dict of str to DataFrame
        Each paper's ``cost.csv``.

    Returns
    -------
    DataFrame
        ``paper``, ``step``, ``owner``, ``kernel``, ``group``, ``minutes``: the steps
        without shares whole, as ``"not sampled"``; the minutes add up to the ledgers'.
    """
    rows = []
    for paper, ledger in ledgers.items():
        for step, wall_s in zip(ledger["step"], ledger["wall_s"], strict=True):
            own = shares[(shares["paper"] == paper) & (shares["step"] == step)]
            if own.empty:
                own = pd.DataFrame(dict.fromkeys(["owner", "kernel", "group"], [NOT_SAMPLED]))
                own["share"] = 1.0
            for row in own.itertuples():
                minutes = row.share * wall_s / 60
                rows.append((paper, step, row.owner, row.kernel, row.group, minutes))
    columns = ["paper", "step", "owner", "kernel", "group", "minutes"]
    return pd.DataFrame(rows, columns=columns)


def render_attribution(minutes, target_minutes):
    """Markdown of :func:`attributed_minutes`: minutes per paper and group, and what the
    target would need of the compendium's own code."""
    table = minutes.pivot_table(
        index="paper", columns="group", values="minutes", aggfunc="sum", fill_value=0.0
    )
    table.loc["all papers"] = table.sum()
    total = minutes["minutes"].sum()
    over = total - target_minutes
    own = table.loc["all papers"].get(GROUPS["dimred"], 0.0)
    libraries = table.loc["all papers"].get("libraries", 0.0)
    sampled = minutes.loc[minutes["group"] != NOT_SAMPLED, ["paper", "step"]].drop_duplicates()
    sampled = len(sampled)
    owners = minutes.groupby("owner")["minutes"].sum().sort_values(ascending=False)
    largest = ", ".join(f"{name} {value:.1f}" for name, value in owners.head(6).items())
    kernels = minutes[minutes["owner"] == "dimred"].groupby("kernel")["minutes"].sum()
    split = ", ".join(
        f"{name} {value:.1f}" for name, value in kernels.sort_values(ascending=False).items()
    )
    verdict = (
        f"The ledgers sum to {total:.1f} min, {over:.1f} min over the target of "
        f"{target_minutes} min; {own:.1f} min of them is the compendium's own code "
        f"(`dimred`, with the NumPy and BLAS it calls: {split}) and {libraries:.1f} min "
        "the libraries' (whose implementations define the tables' numbers). With the "
        "libraries' time as it is, the target needs "
        + (f"{over / own:.0%} of the compendium's own time" if own > 0 else "time that is not ours")
        + " taken off."
        if over > 0
        else f"The ledgers sum to {total:.1f} min, within the target of {target_minutes} min."
    )
    return (
        f"{table.round(1).to_markdown()}\n\n{verdict} By owner (min): {largest}. Shares of "
        f"each sampled step's CPU samples ({sampled} steps, one sampling each; py-spy, "
        "`scripts/profile_costs.py`: `figures/cost_attribution.csv`) applied to its wall "
        "time in the ledger."
    )

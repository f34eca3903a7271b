#!/usr/bin/env python
"""How far is ``dimred.LocalitySensitiveDiscriminantAnalysis`` from Deng Cai's
``LSDA.m`` (Cai, He, Zhou, Han, Bao, IJCAI 2007) on the BVP paper's data?

Cai's MATLAB code is NOT part of this script or of the project: give the path
of ``LSDA.m`` on the command line; its folder (or ``--helpers``) must also hold
the files it calls (``LGE.m``, ``EuDist2.m``, ``mySVD.m``). The script

1. loads the BVP datasets as :mod:`papers.bvp.data` does
   (ORCA real sets standardised; synthetic Gaussians and swiss rolls at the
   paper's size, seed 0, or the quick size with ``--quick``);
2. writes each (X, y) -- and ``--permutations`` row-permuted copies -- to
   ``.mat`` files, and runs ``LSDA(y, options, X)`` under GNU Octave with
   ``options.k = 5, options.beta = 0.1`` (everything else at Cai's defaults);
   the Octave driver also records the neighbour lists that LSDA.m builds
   (``EuDist2(X, [], 0)`` then ``sort(., 2)``, first k + 1 columns);
3. compares the leading 2-D subspaces by their largest principal angle
   (``scipy.linalg.subspace_angles``, degrees).

Angles are measured three ways. ``*_raw``: the directions as returned, in
feature space. Plain name (the main figure): both sets of directions first
projected onto the row space of the centred data -- when the centred data are
rank-deficient (contact-lenses: one-hot columns, rank 5 of 6) LSDA.m may
return directions with an arbitrary component along which the data do not vary
(LGE.m's Cholesky path on a numerically singular ``X^T D X``); that component
does not change the projected data. ``*_emb``: between the 2-D embeddings of
the training data (span of ``X_c A`` vs ``X_c B`` in R^n).

Comparisons (columns of the table):

* ``default``: dimred's estimator as used in the BVP protocol
  (``LocalitySensitiveDiscriminantAnalysis(2, n_neighbors=5, alpha=0.1)``)
  vs Cai's ``LSDA.m``.
* ``selfloop``: dimred's graph (its tie rule) with self-loops added as in
  ``LSDA.m`` (``W_w + I``, ``D_w + I``), the generalized eigenproblem solved
  here with dimred's row-space solver, ridge 0 -- vs Cai.
* ``selfloop_caigraph``: the same problem on the neighbour lists that Cai's
  code itself produced (EuDist2 + sort under Octave) -- vs Cai; what is left
  is the eigen-solver/numerics.
* ``doc_check``: dimred default vs dimred ``selfloop`` (ridge 1e-8, as the
  estimator), i.e. what the class docstring's Notes appear to report;
  ``doc_check_ridge0`` the same with the self-loop problem solved without ridge.
* ``m_eigenspace``, ``default_m``, ``selfloop_m``: when the 2nd eigenvalue is
  repeated (car: 1 - alpha, 9 times) the 2-D subspace is not unique; these
  compare the whole top eigenspace (``m`` dims) instead.
* ``cai_perm_max`` / ``cai_perm_median``: Cai on row-permuted data vs Cai on the
  original order (row order changes only how equal distances are broken).
* ``ours_perm_max``: the same for dimred's default estimator.
* ``selfloop_vs_caiperm_min``: the smallest angle between ``selfloop`` and Cai
  over the row orders tried (does some row order make Cai agree with us?).

Graph diagnostics: ``edges_diff`` is the number of (undirected, off-diagonal)
edges on which dimred's k-NN graph and LSDA.m's graph disagree;
``tied_rows`` the number of points whose k-th and (k+1)-th nearest other points
are at equal distance (relative 1e-10 of the bounding-box diagonal), i.e. whose
neighbour set is decided by a tie-break; ``cai_graph_perm_diff`` the largest
number of edges by which Cai's graph changes under the row permutations;
``cai_self_first`` the number of points that are first in their own list;
``cai_null_norm*`` the norm of the part of Cai's unit directions outside the
row space (original order, min/max over permutations); ``mult_lambda2_*`` how
many eigenvalues equal the 2nd (rel. 1e-8), ``gap23_*`` the relative gap
between the 2nd and 3rd; ``sv_min_over_max`` the conditioning of the centred
data in its row space. Eigenvalues of LSDA.m are rescaled by ``1 - beta`` (it
solves ``(beta / (1 - beta)) L_b + W_w``) to compare with dimred's.

Needs GNU Octave (Debian: ``apt-get install --no-install-recommends octave``) and
Cai's files, e.g. from the GitHub copy in ``weiyikang/SDDP`` (commit
``e17d85fe039d76ceea297993ce49c8fd0b6991a4``, folder ``code/``: ``LSDA.m`` v2.1,
``LGE.m``, ``EuDist2.m``, ``mySVD.m``). Rerun (from the repository root)::

    DIMRED_DATA_MIRROR=/work/shared/data .venv/bin/python \
        scripts/verify_lsda_against_cai.py /path/to/LSDA.m --permutations 20

Writes ``figures/bvp/lsda_vs_cai.{csv,md}`` (``--output``; the class docstring of
:class:`~dimred.LocalitySensitiveDiscriminantAnalysis` quotes it) and
``angles.csv`` and ``meta.json`` (Octave, BLAS, hashes of Cai's files) to
``--workdir`` (default /tmp/cai_lsda).
To measure a given commit of dimred rather than the working tree, extract it
(``git archive <commit> lib | tar -x -C /tmp/dimred_at``) and put
``PYTHONPATH=/tmp/dimred_at/lib`` in front of the command; ``meta.json`` records
where dimred was imported from.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.linalg import subspace_angles
from scipy.spatial.distance import cdist

from compendium import paths
from compendium.reporting import write_table
from dimred import LocalitySensitiveDiscriminantAnalysis
from dimred.utils.graphs import knn_graph, split_by_label
from dimred.utils.linalg import rayleigh_in_row_space, row_space
from papers.bvp import data as protocol

K = 5
ALPHA = 0.1
DIMS = 2

# Octave driver: our own glue code; it only *calls* Cai's functions.
DRIVER = r"""
addpath(%(path)s);
fid = fopen(%(jobs)s, 'r');
while true
  f = fgetl(fid);
  if ~ischar(f), break; end
  S = load(f);
  options = struct();
  options.k = double(S.k);
  options.beta = double(S.beta);
  [V, E] = LSDA(double(S.y(:)), options, double(S.X));
  Dist = EuDist2(double(S.X), [], 0);
  [~, order] = sort(Dist, 2);
  nbrs = order(:, 1:(double(S.k) + 1));
  save('-v7', strrep(f, '.in.mat', '.out.mat'), 'V', 'E', 'nbrs');
end
fclose(fid);
"""


def largest_angle(A, B, basis=None):
    """Largest principal angle (degrees) between the column spaces of A and B;
    with ``basis`` (orthonormal columns: the row space of the centred data)
    both are first projected onto it, which drops the components along which
    the centred data do not vary (they do not change the projected data)."""
    if basis is not None:
        A, B = basis @ (basis.T @ A), basis @ (basis.T @ B)
    return float(np.degrees(np.max(subspace_angles(A, B))))


def null_norm(V, basis):
    """Largest norm of a (unit) direction's part outside the row space ``basis``."""
    return float(np.max(np.linalg.norm(V - basis @ (basis.T @ V), axis=0)))


def multiplicity(values, i=1, rtol=1e-8):
    """How many eigenvalues equal the ``i``-th (0-based) up to ``rtol``."""
    return int(np.sum(np.abs(values - values[i]) <= rtol * abs(values[i])))


def embedding_angle(centred, A, B):
    """Largest principal angle (degrees) between the 2-D embeddings' column spaces
    (span of centred @ A vs centred @ B, in R^n)."""
    return largest_angle(centred @ A, centred @ B)


def all_eigenvalues(X, y, graph):
    """Every eigenvalue of the (self-loop or not) problem in the row space, decreasing."""
    rank = row_space(X - X.mean(axis=0)).shape[1]
    ridge = 0.0 if np.diag(graph).all() else 1e-8  # as the estimator when no self-loops
    values, _ = solve(X, y, graph, ridge=ridge, n_components=rank)
    return values


def solve(X, y, graph, ridge=0.0, n_components=DIMS):
    """LSDA's eigenproblem on a given 0/1 graph (diagonal entries = self-loops):
    X^T (alpha L_b + (1 - alpha) W_w) X a = lambda X^T D_w X a in the row space
    of the centred data, with dimred's solver."""
    within, between = split_by_label(sp.csr_matrix(graph), y)
    left = ALPHA * (sp.diags(np.asarray(between.sum(axis=1)).ravel()) - between)
    left = left + (1 - ALPHA) * within
    degree = sp.diags(np.asarray(within.sum(axis=1)).ravel())
    centred = X - X.mean(axis=0)

    def matrices(Z):
        return Z.T @ (left @ Z), Z.T @ (degree @ Z)

    values, vectors = rayleigh_in_row_space(
        centred, matrices, n_components, ridge=ridge, basis=row_space(centred)
    )
    return values, vectors


def cai_graph(nbrs, n):
    """Symmetric 0/1 graph from Octave's 1-based neighbour lists (self included)."""
    rows = np.repeat(np.arange(n), nbrs.shape[1])
    G = sp.csr_matrix((np.ones(nbrs.size), (rows, nbrs.ravel() - 1)), shape=(n, n))
    return G.maximum(G.T).toarray() > 0


def tied_rows(X, k):
    """Points whose k-th and (k+1)-th nearest other points are equidistant."""
    D = cdist(X, X)
    ranges = np.ptp(X, axis=0)
    unit = 1e-10 * np.linalg.norm(ranges)
    keys = np.floor(D / unit + 0.5)
    np.fill_diagonal(keys, np.inf)
    keys.sort(axis=1)
    return int(np.sum(keys[:, k - 1] == keys[:, k]))


def off_diagonal_edge_diff(A, B):
    diff = np.asarray(A, bool) ^ np.asarray(B, bool)
    np.fill_diagonal(diff, False)
    return int(diff.sum() // 2)


def octave_string(text):
    return "'" + str(text).replace("'", "''") + "'"


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def dimred_source():
    """Where dimred was imported from, the git commit there and whether the files
    this comparison depends on differ from it (the tree may be edited)."""
    import dimred

    root = Path(dimred.__file__).resolve().parents[2]
    files = [
        "lib/dimred/projection/discriminant.py",
        "lib/dimred/utils/graphs.py",
        "lib/dimred/utils/linalg.py",
    ]

    def git(*cmd):
        run = subprocess.run(["git", "-C", str(root), *cmd], capture_output=True, text=True)
        return run.stdout.strip() if run.returncode == 0 else None

    return {
        "path": str(Path(dimred.__file__).parent),
        "git_head": git("rev-parse", "HEAD"),
        "modified": git("status", "--porcelain", "--", *files),
        "sha256": {f: sha256(root / f) for f in files if (root / f).exists()},
    }


def load_data(quick, names):
    data = {}
    for name in protocol.REAL_DATASETS:
        data[name] = protocol.load_real(name)
    for name in protocol.SYNTHETIC_DATASETS:
        data[name] = protocol.load_synthetic(name, quick=quick, seed=0)
    return {n: v for n, v in data.items() if not names or n in names}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lsda_m", help="path of Cai's LSDA.m")
    parser.add_argument("--helpers", default=None, help="folder of LGE.m, EuDist2.m, mySVD.m")
    parser.add_argument("--octave", default="octave-cli")
    parser.add_argument("--workdir", default="/tmp/cai_lsda")
    parser.add_argument("--permutations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="quick synthetic sizes")
    parser.add_argument("--datasets", nargs="*", default=None)
    parser.add_argument("--output", default=str(paths.FIGURES_DIR / "bvp" / "lsda_vs_cai"))
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", category=FutureWarning, module="scipy")

    lsda_m = Path(args.lsda_m).resolve()
    cai_dirs = [str(lsda_m.parent)] + ([str(Path(args.helpers).resolve())] if args.helpers else [])
    work = Path(args.workdir)
    (work / "jobs").mkdir(parents=True, exist_ok=True)
    data = load_data(args.quick, args.datasets)
    rng = np.random.default_rng(args.seed)

    # ---------------------------------------------------------------- jobs
    jobs, perms = [], {}
    for name, (X, y) in data.items():
        n = X.shape[0]
        perms[name] = [np.arange(n)] + [rng.permutation(n) for _ in range(args.permutations)]
        for p, perm in enumerate(perms[name]):
            f = work / "jobs" / f"{name}.{p:03d}.in.mat"
            scipy.io.savemat(f, {"X": X[perm], "y": y[perm].astype(float), "k": K, "beta": ALPHA})
            jobs.append(str(f))
    (work / "jobs.txt").write_text("\n".join(jobs) + "\n")
    driver = DRIVER % {
        "path": ", ".join(octave_string(d) for d in cai_dirs),
        "jobs": octave_string(work / "jobs.txt"),
    }
    (work / "driver.m").write_text(driver)
    start = time.perf_counter()
    run = subprocess.run(
        [args.octave, "--no-gui", "--quiet", "--no-window-system", str(work / "driver.m")],
        capture_output=True,
        text=True,
    )
    octave_s = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"Octave failed ({run.returncode}):\n{run.stdout}\n{run.stderr}")
    version = subprocess.run(
        [
            args.octave,
            "--no-gui",
            "--quiet",
            "--eval",
            "disp(version()); try disp(version('-blas')); disp(version('-lapack')); end",
        ],
        capture_output=True,
        text=True,
    ).stdout.strip()

    # ---------------------------------------------------------------- compare
    rows = []
    for name, (X, y) in data.items():
        n = X.shape[0]
        out = [
            scipy.io.loadmat(j.replace(".in.mat", ".out.mat"))
            for j in jobs
            if Path(j).name.startswith(name + ".")
        ]
        V0, E0, nbrs0 = out[0]["V"], out[0]["E"].ravel(), out[0]["nbrs"].astype(int)
        if V0.shape[1] < DIMS:
            print(f"{name}: LSDA.m returned {V0.shape[1]} directions", file=sys.stderr)
        cai = V0[:, :DIMS]

        est = LocalitySensitiveDiscriminantAnalysis(DIMS, n_neighbors=K, alpha=ALPHA).fit(X, y)
        ours = est.components_.T
        graph = knn_graph(X, K).toarray() > 0
        selfloop_graph = graph | np.eye(n, dtype=bool)
        _, ours_self = solve(X, y, selfloop_graph)
        _, ours_self_ridge = solve(X, y, selfloop_graph, ridge=est.ridge)
        G0 = cai_graph(nbrs0, n)
        vals_cg, ours_cg = solve(X, y, G0)
        centred = X - X.mean(axis=0)
        basis = row_space(centred)
        eig_cg = all_eigenvalues(X, y, G0)
        eig_ours = all_eigenvalues(X, y, graph)
        singular = np.linalg.svd(centred, compute_uv=False)

        cai_perm, ours_perm, selfloop_caiperm, graph_perm = [], [], [], []
        cai_perm_raw, null_perm = [], []
        for p, perm in enumerate(perms[name][1:], start=1):
            Vp = out[p]["V"][:, :DIMS]
            cai_perm.append(largest_angle(cai, Vp, basis))
            cai_perm_raw.append(largest_angle(cai, Vp))
            null_perm.append(null_norm(Vp, basis))
            selfloop_caiperm.append(largest_angle(ours_self, Vp, basis))
            Gp = cai_graph(out[p]["nbrs"].astype(int), n)
            inv = np.argsort(perm)
            graph_perm.append(off_diagonal_edge_diff(G0, Gp[np.ix_(inv, inv)]))
            est_p = LocalitySensitiveDiscriminantAnalysis(DIMS, n_neighbors=K, alpha=ALPHA)
            ours_perm.append(largest_angle(ours, est_p.fit(X[perm], y[perm]).components_.T))
        selfloop_caiperm.append(largest_angle(ours_self, cai, basis))

        # Degenerate case: compare the whole eigenspace of lambda_2 (m > 2 dims).
        m = int(np.sum(eig_cg >= eig_cg[1] - 1e-8 * abs(eig_cg[1])))
        m = min(m, V0.shape[1])
        ours_m = LocalitySensitiveDiscriminantAnalysis(m, n_neighbors=K, alpha=ALPHA)
        ours_m = ours_m.fit(X, y).components_.T
        _, self_m = solve(X, y, selfloop_graph, n_components=m)

        rows.append(
            {
                "dataset": name,
                "n": n,
                "d": X.shape[1],
                "rank": basis.shape[1],
                "sv_min_over_max": singular[basis.shape[1] - 1] / singular[0],
                "default_raw": largest_angle(ours, cai),
                "default": largest_angle(ours, cai, basis),
                "default_emb": embedding_angle(centred, ours, cai),
                "selfloop_raw": largest_angle(ours_self, cai),
                "selfloop": largest_angle(ours_self, cai, basis),
                "selfloop_emb": embedding_angle(centred, ours_self, cai),
                "selfloop_caigraph": largest_angle(ours_cg, cai, basis),
                "m_eigenspace": m,
                "default_m": largest_angle(ours_m, V0[:, :m], basis),
                "selfloop_m": largest_angle(self_m, V0[:, :m], basis),
                "doc_check": largest_angle(ours, ours_self_ridge),
                "doc_check_ridge0": largest_angle(ours, ours_self),
                # eigenvalues equal to the 2nd one (rel. 1e-8): > 2 means the
                # 2-D subspace is not unique (any 2 of a degenerate eigenspace)
                "mult_lambda2_cai": multiplicity(eig_cg),
                "mult_lambda2_ours": multiplicity(eig_ours),
                "gap23_cai": (eig_cg[1] - eig_cg[2]) / abs(eig_cg[1]),
                "gap23_ours": (eig_ours[1] - eig_ours[2]) / abs(eig_ours[1]),
                "cai_perm_max": max(cai_perm, default=np.nan),
                "cai_perm_median": float(np.median(cai_perm)) if cai_perm else np.nan,
                "ours_perm_max": max(ours_perm, default=np.nan),
                "cai_perm_raw_max": max(cai_perm_raw, default=np.nan),
                "cai_null_norm": null_norm(cai, basis),
                "cai_null_norm_perm_min": min(null_perm, default=np.nan),
                "cai_null_norm_perm_max": max(null_perm, default=np.nan),
                "selfloop_vs_caiperm_min": min(selfloop_caiperm),
                "edges_diff": off_diagonal_edge_diff(graph, G0),
                "tied_rows": tied_rows(X, K),
                "cai_self_first": int(np.sum(nbrs0[:, 0] == np.arange(1, n + 1))),
                "cai_graph_perm_diff": max(graph_perm, default=0),
                "cai_eig_1_2_3": " ".join(f"{v:.6g}" for v in E0[:3] * (1 - ALPHA)),
                "selfloop_caigraph_eig_1_2": " ".join(f"{v:.6g}" for v in vals_cg),
                "ours_eig_1_2": " ".join(f"{v:.6g}" for v in est.eigenvalues_),
            }
        )

    import pandas as pd

    table = pd.DataFrame(rows).set_index("dataset")
    table.to_csv(work / "angles.csv")
    labels = {
        n: "synthetic" if n in protocol.SYNTHETIC_DATASETS else f"real (ORCA {n})"
        for n in table.index
    }
    write_table(table.assign(data=table.index.map(labels)), args.output)
    meta = {
        "lsda_m": str(lsda_m),
        "sha256": {
            f: sha256(Path(d) / f)
            for d in cai_dirs
            for f in ("LSDA.m", "LGE.m", "EuDist2.m", "mySVD.m")
            if (Path(d) / f).exists()
        },
        "octave": version,
        "octave_seconds": round(octave_s, 1),
        "permutations": args.permutations,
        "seed": args.seed,
        "quick": args.quick,
        "k": K,
        "alpha_beta": ALPHA,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "DIMRED_DATA_MIRROR": os.environ.get("DIMRED_DATA_MIRROR"),
        "dimred": dimred_source(),
    }
    (work / "meta.json").write_text(json.dumps(meta, indent=2))
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        cols = [
            "n",
            "d",
            "rank",
            "default_raw",
            "default",
            "default_emb",
            "selfloop_raw",
            "selfloop",
            "selfloop_emb",
            "selfloop_caigraph",
            "doc_check",
            "doc_check_ridge0",
            "m_eigenspace",
            "default_m",
            "selfloop_m",
        ]
        print(table[cols].round(3).to_string())
        cols = [
            "cai_null_norm",
            "cai_null_norm_perm_min",
            "cai_null_norm_perm_max",
            "cai_perm_raw_max",
        ]
        print(table[cols].to_string(float_format=lambda v: f"{v:.3g}"))
        cols = [
            "cai_perm_max",
            "cai_perm_median",
            "ours_perm_max",
            "selfloop_vs_caiperm_min",
            "edges_diff",
            "tied_rows",
            "cai_self_first",
            "cai_graph_perm_diff",
            "mult_lambda2_cai",
            "mult_lambda2_ours",
            "gap23_cai",
            "gap23_ours",
            "sv_min_over_max",
        ]
        print(table[cols].to_string(float_format=lambda v: f"{v:.3g}"))
        print(table[["cai_eig_1_2_3", "selfloop_caigraph_eig_1_2", "ours_eig_1_2"]].to_string())
    print(json.dumps(meta, indent=2))


if __name__ == "__main__":
    main()

"""The survey's pipelines: a reduction of the features, then an SVC (Sec. III).

Every table of the paper is one sweep of a reduction over its grid, each cell
scored by the test accuracy of ``SVC(C=1)`` (:func:`svc_accuracy`). The choices
the paper leaves open, as made here:

* **Split**: one stratified 60/40 split seeded by the run's seed (Sec. III-A says
  stratified; the authors' code re-drew an unstratified, unseeded split for every
  cell). Accuracy is that of the 40 % test part.
* **SVC**: ``sklearn.svm.SVC`` (libsvm trains one-vs-one; the paper's "one-vs-rest"
  is only the default shape of ``decision_function``), ``C = 1``,
  ``gamma = "scale"``, features not rescaled (the authors' code does not scale,
  and Table X's collapse of LLE with a linear SVC depends on it). A linear SVC
  predicts through :func:`~papers.awa2_dr_survey.svc.ovo_predict`: libsvm's predictions, row
  for row, from one matrix product (``make bench``: ``bench_svc.py``).
* **The same tables on any machine**: the SVC's features and t-SNE's input and start
  are put on a grid of :data:`GRID_RTOL` of their largest magnitude, and t-SNE's
  distances are computed from the differences (:func:`svc_accuracy`,
  :func:`tsne`): a reduction computed through another BLAS kernel differs in its
  last bits, which libsvm's solver and t-SNE's optimisation turn into other cells.
* **Inductive methods** (variance selection, PCA, kernel PCA, LDA, FA) are fitted
  on the training part and map the test part with ``transform``.
* **Transductive methods** (t-SNE, LLE, MDS, the autoencoder) are fitted on all
  points, test points included, then split: what the authors' code did (t-SNE and
  SMACOF-MDS have no out-of-sample map). :func:`transductive_accuracy` does that.
* **Nested reductions** (PCA, kernel PCA, LDA, LLE, variance selection) are fitted
  once at the largest dimension of their grid and sliced: their first ``d``
  components do not depend on how many more are computed (with the dense
  eigen-solvers used here; tested). FA and t-SNE are fitted per dimension.

The 0.22-era defaults the authors relied on are passed explicitly
(``AUTHORS_CODE.md`` in ``data/published/awa2_dr_survey``).
"""

import warnings

import numpy as np
from openTSNE import TSNE as OpenTSNE
from openTSNE import initialization
from sklearn.decomposition import PCA, KernelPCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.exceptions import ConvergenceWarning
from sklearn.manifold import MDS, LocallyLinearEmbedding
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import KernelCenterer
from sklearn.svm import SVC

from dimred.decomposition import GramFactorAnalysis

from ..stable_maps import exact_tsne, on_common_grid, on_grid
from .svc import ovo_predict

__all__ = [
    "GRID_RTOL",
    "KERNELS",
    "Split",
    "factor_analysis",
    "kernel_pca",
    "lda",
    "lle",
    "opentsne_inductive",
    "smacof_mds",
    "svc_accuracy",
    "transductive_accuracy",
    "tsne",
    "variance_order",
]

#: Kernel PCA kernels of Table IV (``linear`` is PCA).
KERNELS = ("linear", "rbf", "poly", "sigmoid", "cosine")
#: The SVC's C (Sec. III-B) and kernel PCA's degree and c0 (Sec. III-D: 0.22's defaults).
SVC_C, KPCA_DEGREE, KPCA_COEF0 = 1.0, 3, 1.0
#: Grid of the SVC's features and of t-SNE's input and start (:func:`svc_accuracy`,
#: :func:`tsne`, :func:`opentsne_inductive`), relative to their largest magnitude.
GRID_RTOL = 1e-6


class Split:
    """A stratified train/test split of ``(X, y)`` (Sec. III-A).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    test_size : float
    seed : int

    Attributes
    ----------
    train, test : ndarray of int
        Row indices of each part, sorted.
    """

    def __init__(self, X, y, test_size, seed):
        self.X, self.y = X, y
        train, test = train_test_split(
            np.arange(len(y)), test_size=test_size, stratify=y, random_state=seed
        )
        self.train, self.test = np.sort(train), np.sort(test)

    @property
    def parts(self):
        """``X_train, X_test, y_train, y_test`` (copies of the rows)."""
        X, y = self.X, self.y
        return X[self.train], X[self.test], y[self.train], y[self.test]

    @property
    def labels(self):
        """``y_train, y_test``."""
        return self.y[self.train], self.y[self.test]


def svc_accuracy(Z_train, y_train, Z_test, y_test, kernel="linear", C=SVC_C, max_iter=-1):
    """Test and training accuracy (percent) of ``SVC(C, kernel)`` (Sec. III-B).

    ``max_iter=-1`` (no limit, the paper's SVC) unless a diagnostic needs a bound.
    The features are put on one grid of :data:`GRID_RTOL` times their largest
    magnitude (:func:`~papers.stable_maps.on_common_grid`) first: libsvm's solver
    turns a last-bit difference of its input into a different model (Table V's 1-D
    LDA cell moved by one test point when its projections were multiplied by
    ``1 + 1e-15``), and a reduction computed through another BLAS kernel differs in
    its last bits. On the grid such noise cannot move a feature, except one within
    that noise of a grid point.

    Returns
    -------
    test, train : float
        Accuracy in percent, as the paper prints it.
    """
    Z_train, Z_test = on_common_grid((Z_train, Z_test), GRID_RTOL)
    model = SVC(C=C, kernel=kernel, gamma="scale", max_iter=max_iter)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(Z_train, y_train)
    test = 100.0 * np.mean(ovo_predict(model, Z_test) == y_test)
    train = 100.0 * np.mean(ovo_predict(model, Z_train) == y_train)
    return float(test), float(train)


def transductive_accuracy(Z, s, kernel="linear"):
    """:func:`svc_accuracy` of an embedding ``Z`` of all points, split by ``s``."""
    return svc_accuracy(Z[s.train], s.y[s.train], Z[s.test], s.y[s.test], kernel)


# ------------------------------------------------------------------- the reductions
def variance_order(X_train):
    """Features by decreasing training variance, ties by index (Sec. III-C).

    Table II keeps the first ``k``, Table III the last ``k`` (least variance).
    """
    return np.argsort(-X_train.var(axis=0), kind="stable")


def kernel_pca(X_train, X_test, kernel, n_components):
    """Kernel PCA of Table IV, fitted on the training part (Sec. III-D).

    ``linear`` is PCA (``KernelPCA(kernel="linear")`` equals PCA up to signs;
    PCA needs no ``n x n`` kernel). The others use the paper's parameters,
    scikit-learn 0.22's defaults: ``gamma = 1 / n_features``, ``degree = 3``,
    ``coef0 = 1``, and a dense eigen-decomposition (what 0.22's ``"auto"`` chose for
    this many components), so that the components are nested.

    The sigmoid kernel is not positive semi-definite: only the components of
    positive eigenvalues of its centred kernel matrix exist (scikit-learn refuses
    the others), so at most that many are returned (counting them costs one more
    eigendecomposition, for this kernel only). The cosine kernel is the linear
    kernel of normalised rows: its rank is at most ``n_features``, so at most that
    many components are returned (beyond the rank they would be round-off noise).

    Returns
    -------
    Z_train, Z_test : ndarray
        At most ``n_components`` components, by decreasing eigenvalue.
    """
    if kernel == "linear":
        model = PCA(min(n_components, *X_train.shape), svd_solver="full")
        return model.fit_transform(X_train), model.transform(X_test)
    options = dict(
        kernel=kernel, gamma=1.0 / X_train.shape[1], degree=KPCA_DEGREE, coef0=KPCA_COEF0
    )
    n_components = min(n_components, len(X_train))
    if kernel == "cosine":  # the linear kernel of normalised rows
        n_components = min(n_components, X_train.shape[1])
    if kernel == "sigmoid":  # not positive semi-definite
        n_components = min(n_components, _positive_eigenvalues(X_train, options))
    model = KernelPCA(n_components, eigen_solver="dense", **options)
    return model.fit_transform(X_train), model.transform(X_test)


def _positive_eigenvalues(X, options):
    """Number of clearly positive eigenvalues of the centred kernel matrix of ``X``."""
    K = KernelCenterer().fit_transform(
        pairwise_kernels(
            X,
            metric=options["kernel"],
            filter_params=True,
            **{k: v for k, v in options.items() if k != "kernel"},
        )
    )
    eigenvalues = np.linalg.eigvalsh(K)
    return int(np.sum(eigenvalues > 1e-10 * eigenvalues.max()))


def lda(X_train, y_train, X_test, n_components=None):
    """LDA (``solver="svd"``, Sec. III-E) fitted on the training part.

    Returns
    -------
    Z_train, Z_test : ndarray
        At most ``n_classes - 1`` components, by decreasing discriminant ratio.
    """
    model = LinearDiscriminantAnalysis(n_components=n_components, solver="svd")
    return model.fit_transform(X_train, y_train), model.transform(X_test)


def factor_analysis(X_train, X_test, n_components, seed=0):
    """Factor analysis with ``n_components`` factors (Sec. III-F), 0.22's defaults.

    scikit-learn's EM with its randomized SVD (what the authors ran), each SVD taken
    from the features' Gram matrix (:class:`~dimred.decomposition.GramFactorAnalysis`):
    the same fit up to rounding, in ``O(d^2 k)`` per iteration instead of ``O(n d k)``.
    """
    model = GramFactorAnalysis(n_components, tol=1e-2, max_iter=1000, random_state=seed)
    return model.fit_transform(X_train), model.transform(X_test)


def tsne(X, n_components, method, seed, max_iter=1000, perplexity=30.0):
    """t-SNE as the authors ran it (Sec. III-G; ``AUTHORS_CODE.md``).

    scikit-learn 0.22's behaviour, passed explicitly: ``learning_rate = 200``,
    ``init`` = the *unscaled* PCA scores (0.22 did not rescale them; modern
    ``init="pca"`` does), perplexity 30, early exaggeration 12.

    So that the map does not depend on the BLAS kernel, the input and the PCA start
    are put on :func:`~papers.stable_maps.on_grid` (:data:`GRID_RTOL`: an
    input computed by a reduction carries the kernel's rounding in its last bits),
    and scikit-learn's ``TSNE`` is given distances computed from the coordinate
    differences (:func:`~papers.stable_maps.exact_tsne`; its own norm
    expansion reorders near-tied neighbours). The same algorithm on the same input
    to within ``GRID_RTOL``; Barnes-Hut's gradient then repeats the same arithmetic
    on any machine, while the exact gradient still multiplies through the BLAS.

    Parameters
    ----------
    X : ndarray
        All points (transductive).
    n_components : int
    method : {"barnes_hut", "exact"}
    seed : int
    max_iter : int
    perplexity : float

    Returns
    -------
    ndarray of shape (n_samples, n_components)
    """
    X = on_grid(X, GRID_RTOL)
    init = PCA(n_components, svd_solver="randomized", random_state=seed).fit_transform(X)
    return exact_tsne(
        X,
        perplexity,
        seed,
        init=on_grid(init, GRID_RTOL).astype(np.float32),
        n_components=n_components,
        learning_rate=200.0,
        max_iter=max_iter,
        method=method,
    )


def opentsne_inductive(X_train, X_test, seed, perplexity=30.0):
    """2-D t-SNE of the training part (openTSNE, FFT-accelerated), test points mapped.

    The inductive reading the authors' transductive protocol lacks: openTSNE
    embeds the test points into the fixed training map (``TSNEEmbedding.transform``),
    so no test point shapes the map the SVC is trained on. As close to :func:`tsne`
    as openTSNE allows: perplexity 30, learning rate 200, 250 exaggerated + 750
    iterations; it differs in the gradient (FFT interpolation instead of
    Barnes-Hut) and in its PCA initialisation, which openTSNE rescales.

    As in :func:`tsne`, nothing of the BLAS kernel reaches the map: both parts are
    put on one grid (:data:`GRID_RTOL`) and so is openTSNE's own PCA start
    (``openTSNE.initialization.pca``); the neighbours are always Annoy's (seeded,
    its own arithmetic), where openTSNE would take scikit-learn's exact search,
    through the BLAS, below 1,000 points.

    Returns
    -------
    Z_train, Z_test : ndarray of shape (n, 2)
    """
    X_train, X_test = on_common_grid((X_train, X_test), GRID_RTOL)
    start = initialization.pca(X_train, 2, random_state=seed)
    model = OpenTSNE(
        2,
        perplexity=perplexity,
        learning_rate=200.0,
        n_iter=750,
        initialization=on_grid(start, GRID_RTOL),
        neighbors="annoy",
        random_state=seed,
        n_jobs=1,
        verbose=False,
    )
    embedding = model.fit(X_train)
    return np.asarray(embedding), np.asarray(embedding.transform(X_test))


def lle(X, n_neighbors, n_components, seed=0):
    """Standard LLE of all points (Sec. III-H), dense eigen-solver (nested components).

    Returns
    -------
    model : LocallyLinearEmbedding
        Fitted; ``model.embedding_`` embeds ``X``, ``model.transform`` maps new
        points through their training neighbours (the inductive reading).
    """
    model = LocallyLinearEmbedding(
        n_neighbors=n_neighbors,
        n_components=n_components,
        reg=1e-3,
        eigen_solver="dense",
        random_state=seed,
    )
    return model.fit(X)


def smacof_mds(X, n_components, seed):
    """Metric MDS by SMACOF as the authors ran it (``sklearn.manifold.MDS``, Sec. III-I).

    0.22's settings, passed explicitly: 4 random initialisations, at most 300
    iterations, Euclidean dissimilarities. The stopping rule cannot be carried
    over: 0.22 stopped when the change of a normalised stress fell below
    ``eps = 1e-3``, while modern scikit-learn's ``eps`` is relative to the stress,
    where 1e-3 stops random starts after about 5 iterations (stress 12 times
    above that after 300; tested). Its default ``eps = 1e-6`` is used, which runs
    the 300 iterations the authors' runs could use at most.

    Returns
    -------
    MDS
        Fitted: ``embedding_``, ``stress_`` and ``n_iter_`` of the best start.
    """
    model = MDS(
        n_components,
        metric_mds=True,
        n_init=4,
        init="random",
        max_iter=300,
        random_state=seed,
        normalized_stress=False,
    )
    return model.fit(X)

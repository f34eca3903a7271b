"""Generalized symmetric eigenproblems shared by the discriminant and graph
embeddings (LSDA, KDA, and the ratio criteria of the ordinal baselines), stable signs
of eigenvectors, and the blocked ``X_c^T X_c`` of classical MDS and factor analysis."""

import numpy as np
from scipy.linalg import eigh
from scipy.linalg.blas import dsyrk

__all__ = [
    "centred_gram",
    "generalized_eigh",
    "numerical_rank",
    "principal_axes",
    "rayleigh_in_row_space",
    "ridged",
    "row_space",
    "stable_signs",
]

#: Entries within this relative distance of the largest magnitude count as tied
#: with it in :func:`stable_signs`, so that rounding cannot pick the reference entry.
SIGN_RTOL = 1e-8
#: Eigenvalues closer than this fraction of the largest magnitude count as repeated in
#: :func:`generalized_eigh` (its ``tie_break``).
EIGEN_RTOL = 1e-8
#: An input axis whose projection on a tied eigenspace (beyond the axes taken before it)
#: is shorter than this fraction of the longest is skipped by the axis rule of
#: :func:`generalized_eigh`: its direction there is rounding noise.
AXIS_RTOL = 1e-8
#: Bytes of the float64 blocks of rows in which :func:`centred_gram` accumulates
#: ``X_c^T X_c`` (so that float32 data need no float64 copy of the whole matrix).
GRAM_BLOCK_BYTES = 16 * 2**20


def numerical_rank(singular_values, rtol=1e-10):
    """Number of singular values above ``rtol`` times the largest."""
    singular_values = np.asarray(singular_values)
    return int(np.sum(singular_values > singular_values.max(initial=0.0) * rtol))


def centred_gram(X, mean):
    """Upper triangle of ``(X - mean)^T (X - mean)`` in float64, ``O(d^2)`` memory beyond ``X``.

    Accumulated by BLAS ``dsyrk`` over blocks of rows (:data:`GRAM_BLOCK_BYTES` each),
    centred and cast to float64 block by block. The strict lower triangle is zero.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    mean : ndarray of shape (n_features,)

    Returns
    -------
    ndarray of shape (n_features, n_features), Fortran-ordered
    """
    n_samples, n_features = X.shape
    mean = np.asarray(mean, dtype=np.float64)
    gram = np.zeros((n_features, n_features), order="F")
    rows = max(1, GRAM_BLOCK_BYTES // (8 * n_features))
    for start in range(0, n_samples, rows):
        block = X[start : start + rows].astype(np.float64)
        block -= mean
        # block.T is Fortran-ordered: dsyrk reads it in place; upper triangle of A A^T.
        gram = dsyrk(1.0, block.T, beta=1.0, c=gram, trans=0, lower=0, overwrite_c=1)
    return gram


def stable_signs(vectors):
    """Flip each column so that its first entry of (nearly) largest magnitude is positive.

    Eigenvectors are defined up to sign; this makes fitted components
    reproducible across runs and platforms (as scikit-learn's ``svd_flip``).
    The reference entry is the first one whose magnitude is within a relative
    :data:`SIGN_RTOL` of the column's largest, so that entries tied in exact
    arithmetic (symmetric data) are not told apart by rounding noise.

    Parameters
    ----------
    vectors : ndarray of shape (n, k)

    Returns
    -------
    ndarray of shape (n, k)
    """
    magnitude = np.abs(vectors)
    rows = np.argmax(magnitude >= (1 - SIGN_RTOL) * magnitude.max(axis=0), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1.0
    return vectors * signs


def ridged(B, ridge):
    """``B + ridge * trace(B) / n * I``: the ridge relative to ``B``'s mean eigenvalue."""
    n = B.shape[0]
    return B + ridge * np.trace(B) / n * np.eye(n) if ridge > 0 else B


def generalized_eigh(A, B, n_components, ridge=0.0, tie_break=None):
    """Leading solutions of ``A w = lambda B w``, ``B`` positive definite (largest first).

    Parameters
    ----------
    A : ndarray of shape (n, n)
        Symmetric.
    B : ndarray of shape (n, n)
        Symmetric positive semi-definite; ``ridge * trace(B) / n`` is added to
        its diagonal when ``ridge > 0`` (for singular ``B``).
    n_components : int
    ridge : float, default=0.0
    tie_break : ndarray of shape (n, n), optional
        Symmetric positive semi-definite ``C``. A repeated eigenvalue (within
        :data:`EIGEN_RTOL` of the largest magnitude) has a whole eigenspace of
        solutions, from which LAPACK returns a basis that depends on rounding;
        with ``tie_break``, the eigenspace's basis is chosen by ``w^T C w`` instead
        (largest first, over ``w^T B w = 1``), where that ties too, by the
        smallest Euclidean norm, and where that ties as well (a symmetry of the
        problem: e.g. the one-hot columns of a full factorial design), by the
        input axes in their order (the axis rule: the first basis vector is the
        one nearest the first input axis that has a component in the eigenspace,
        and so on, :func:`_axis_basis`), so that the leading ``n_components`` are
        a function of the problem, not of the BLAS or the order of the rows.
        Without it, only the leading ``n_components`` are computed.

    Returns
    -------
    eigenvalues : ndarray of shape (n_components,)
        Decreasing.
    eigenvectors : ndarray of shape (n, n_components)
        ``B``-orthonormal columns with :func:`stable_signs`.
    """
    A = (A + A.T) / 2
    B = (B + B.T) / 2
    n = A.shape[0]
    if ridge > 0:
        values, vectors, B = _ridged_eigh(A, B, ridge)
    elif tie_break is None:
        values, vectors = eigh(A, B, subset_by_index=[n - n_components, n - 1])
        return values[::-1], stable_signs(vectors[:, ::-1])
    else:
        values, vectors = eigh(A, B)
    values, vectors = values[::-1], vectors[:, ::-1]
    if tie_break is None:
        return values[:n_components], stable_signs(vectors[:, :n_components])
    vectors = _break_ties(values, vectors, B, (tie_break + tie_break.T) / 2)
    return values[:n_components], stable_signs(vectors[:, :n_components])


def _ridged_eigh(A, B, ridge):
    """Every solution of ``A w = lambda (B + ridge trace(B) / n I) w`` (increasing),
    solved in ``B``'s eigenbasis, and the ridged ``B``.

    With ``B = U diag(b) U^T``, ``w = U (b + r)^(-1/2) v`` turns the problem into the
    standard one ``(b + r)^(-1/2) U^T A U (b + r)^(-1/2) v = lambda v``. LAPACK's
    generalized solver factors ``B + r I`` by Cholesky instead and loses accuracy with
    its condition (``1e10`` when ``B`` is singular and ``r`` a ``1e-8`` ridge: the
    leading LSDA directions of ORCA's automobile moved in the 7th digit from one BLAS
    kernel to another, and flipped a 1-NN prediction). Here the huge quotients of
    ``B``'s null directions are those of a well-conditioned block, and ``B``'s
    eigenvalues that are zero to working precision (below ``n eps`` times the largest)
    are taken as exactly 0, not as rounding noise.
    """
    n = B.shape[0]
    b, basis = np.linalg.eigh(B)
    b = np.where(np.abs(b) <= n * np.finfo(float).eps * np.abs(b).max(initial=0.0), 0.0, b)
    b = b + ridge * b.sum() / n
    scale = 1.0 / np.sqrt(b)
    values, v = np.linalg.eigh(scale[:, None] * (basis.T @ A @ basis) * scale[None, :])
    return values, basis @ (scale[:, None] * v), (basis * b) @ basis.T


def _break_ties(values, vectors, B, C):
    """Rotate the ``B``-orthonormal eigenvectors of each repeated eigenvalue (``values``
    decreasing) within their eigenspace: largest ``w^T C w`` first, where that ties
    too, smallest Euclidean norm first (largest ``w^T B w`` per unit length), and where
    that ties as well, by :func:`_axis_basis`. Rotations keep the basis
    ``B``-orthonormal."""
    for start, stop in _repeated(values):
        space = vectors[:, start:stop]
        variance, rotation = np.linalg.eigh(space.T @ C @ space)
        space = space @ rotation[:, ::-1]
        for first, last in _repeated(variance[::-1]):
            part = space[:, first:last]
            norms, rotation = np.linalg.eigh(part.T @ part)
            part = part @ rotation
            for low, high in _repeated(norms[::-1]):  # _repeated reads decreasing values
                within = slice(last - first - high, last - first - low)
                part[:, within] = _axis_basis(part[:, within])
            space[:, first:last] = part
        vectors[:, start:stop] = space
    return vectors


def _axis_basis(space):
    """The basis of ``span(space)`` that follows the input axes, reached by an
    orthogonal rotation of the columns (which keeps any ``B``-orthonormality).

    The axes ``e_1, e_2, ...`` are taken in order; each whose coordinates
    ``space^T e_j``, beyond those of the axes taken before it, are longer than
    :data:`AXIS_RTOL` times the longest adds one basis vector (Gram--Schmidt of
    the rows of ``space`` in the basis' coordinates), until the basis is complete.
    """
    coordinates = space / np.abs(space).max(initial=0.0)  # row j: coordinates of e_j
    taken = np.zeros((space.shape[1], 0))
    for row in coordinates:
        rest = row - taken @ (taken.T @ row)
        length = np.linalg.norm(rest)
        if length > AXIS_RTOL:
            taken = np.column_stack([taken, rest / length])
            if taken.shape[1] == space.shape[1]:
                break
    return space @ taken


def _repeated(values):
    """``(start, stop)`` of each run of two or more equal ``values`` (decreasing), equal
    meaning within :data:`EIGEN_RTOL` of the largest magnitude of consecutive ones."""
    values = np.asarray(values)
    scale = np.abs(values).max(initial=0.0)
    starts = np.flatnonzero(np.diff(values, prepend=np.inf) < -EIGEN_RTOL * scale)
    stops = [*starts[1:], values.size]
    return [(a, b) for a, b in zip(starts, stops, strict=True) if b - a > 1]


def principal_axes(X, n_components, random_state=None):
    """Leading principal axes of ``X`` (columns), a repeated variance resolved by rule.

    The eigenvectors of ``X_c^T X_c`` (``X_c`` the centred data) for the
    ``n_components`` largest eigenvalues, signs by :func:`stable_signs`. Where a
    variance is repeated (a symmetric design: the one-hot columns of a full factorial
    set such as car or contact-lenses give covariance eigenvalues repeated up to six
    times), every basis of its eigenspace is principal and LAPACK returns one that
    depends on rounding; no criterion of the data can tell them apart. The basis is
    then :func:`generalized_eigh`'s axis rule (``random_state=None``), or that basis
    turned by a rotation drawn uniformly (Haar) from ``random_state``: a basis in
    general position, where the axis rule's follows single one-hot columns (on car it
    stacks the 1,728 points on 3 locations).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_components : int
    random_state : int, optional

    Returns
    -------
    variances : ndarray of shape (n_components,)
        Eigenvalues of ``X_c^T X_c / (n_samples - 1)``, decreasing.
    axes : ndarray of shape (n_features, n_components)
        Orthonormal columns.
    """
    centred = X - X.mean(axis=0)
    identity = np.eye(X.shape[1])
    gram = centred.T @ centred / (X.shape[0] - 1)
    if random_state is None:
        return generalized_eigh(gram, identity, n_components, tie_break=identity)
    values, vectors = generalized_eigh(gram, identity, X.shape[1], tie_break=identity)
    rng = np.random.default_rng(random_state)
    for start, stop in _repeated(values):
        gaussian = rng.standard_normal((stop - start, stop - start))
        rotation, triangle = np.linalg.qr(gaussian)
        vectors[:, start:stop] = vectors[:, start:stop] @ (rotation * np.sign(np.diag(triangle)))
    return values[:n_components], stable_signs(vectors[:, :n_components])


def row_space(Z, rtol=1e-10):
    """Orthonormal basis of the row space of ``Z`` (its numerical rank, see
    :func:`numerical_rank`), as columns.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, m)
    rtol : float, default=1e-10

    Returns
    -------
    ndarray of shape (m, rank)
    """
    _, singular, vt = np.linalg.svd(Z, full_matrices=False)
    return vt[: numerical_rank(singular, rtol)].T


def rayleigh_in_row_space(Z, matrices, n_components, ridge=0.0, basis=None):
    """Maximisers of ``w^T A w / w^T B w`` among the directions in which ``Z`` varies.

    A repeated eigenvalue is resolved by the variance of the data: among equally
    good directions, those along which ``Z`` varies most come first
    (:func:`generalized_eigh`'s ``tie_break`` with ``Z^T Z``).

    ``A = A(Z)`` and ``B = B(Z)`` are quadratic in ``Z`` (``Z^T G Z``): every
    ``w`` orthogonal to the rows of ``Z`` gives ``0 / 0`` (``B`` is singular),
    or ``0 / ridge`` once ``B`` is regularised, directions whose projections
    ``Z w`` vanish (the optimum of a minimised quotient: see
    :mod:`dimred.ordinal.criteria`). As in Cai's reference code of LPP, NPE,
    IsoProjection and LSDA,
    the problem is therefore solved in an orthonormal basis ``V`` of the row
    space of ``Z`` (its principal subspace, all non-zero singular values kept):
    ``V^T A V v = lambda (V^T B V + ridge * trace(B) / r * I) v`` with ``r``
    the numerical rank, and ``w = V v``. When ``Z`` has full column rank this
    is the original problem with ``ridge * trace(B) / m * I`` added to ``B``.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, m)
    matrices : callable
        ``matrices(Z_r) -> (A_r, B_r)`` for data in any basis (``Z_r = Z V``).
    n_components : int
        At most the rank of ``Z``.
    ridge : float, default=0.0
    basis : ndarray of shape (m, r), optional
        :func:`row_space` of ``Z`` when the caller has it already.

    Returns
    -------
    eigenvalues : ndarray of shape (n_components,)
    directions : ndarray of shape (m, n_components)
        In the row space of ``Z``, with :func:`stable_signs` in the input
        coordinates (not in the basis ``V``, whose signs LAPACK chooses).

    Raises
    ------
    ValueError
        When ``n_components`` exceeds the rank of ``Z``.
    """
    basis = row_space(Z) if basis is None else basis
    if n_components > basis.shape[1]:
        raise ValueError(
            f"n_components={n_components} exceeds the rank {basis.shape[1]} of the data."
        )
    reduced = Z @ basis
    values, vectors = generalized_eigh(
        *matrices(reduced), n_components, ridge, tie_break=reduced.T @ reduced
    )
    return values, stable_signs(basis @ vectors)

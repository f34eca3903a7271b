"""Generalized symmetric eigenproblems shared by the discriminant and graph
embeddings (LSDA, KDA, and the graph-based projections of later papers)."""

import numpy as np
from scipy.linalg import eigh

__all__ = ["generalized_eigh", "numerical_rank", "stable_signs"]


def numerical_rank(singular_values, rtol=1e-10):
    """Number of singular values above ``rtol`` times the largest."""
    singular_values = np.asarray(singular_values)
    return int(np.sum(singular_values > singular_values.max(initial=0.0) * rtol))


def stable_signs(vectors):
    """Flip each column so its largest-magnitude entry is positive.

    Eigenvectors are defined up to sign; this makes fitted components
    reproducible across runs and platforms (as scikit-learn's ``svd_flip``).

    Parameters
    ----------
    vectors : ndarray of shape (n, k)

    Returns
    -------
    ndarray of shape (n, k)
    """
    rows = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1.0
    return vectors * signs


def generalized_eigh(A, B, n_components, largest=True, ridge=0.0):
    """Leading (or trailing) solutions of ``A w = lambda B w``, ``B`` positive definite.

    Parameters
    ----------
    A : ndarray of shape (n, n)
        Symmetric.
    B : ndarray of shape (n, n)
        Symmetric positive semi-definite; ``ridge * trace(B) / n`` is added to
        its diagonal when ``ridge > 0`` (for singular ``B``).
    n_components : int
    largest : bool, default=True
        Largest eigenvalues first, else smallest first.
    ridge : float, default=0.0

    Returns
    -------
    eigenvalues : ndarray of shape (n_components,)
    eigenvectors : ndarray of shape (n, n_components)
        ``B``-orthonormal columns with :func:`stable_signs`.
    """
    A = (A + A.T) / 2
    B = (B + B.T) / 2
    n = A.shape[0]
    if ridge > 0:
        B = B + ridge * np.trace(B) / n * np.eye(n)
    subset = [n - n_components, n - 1] if largest else [0, n_components - 1]
    values, vectors = eigh(A, B, subset_by_index=subset)
    if largest:
        values, vectors = values[::-1], vectors[:, ::-1]
    return values, stable_signs(vectors)

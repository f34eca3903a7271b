"""Exact, fast predictions of a fitted linear ``sklearn.svm.SVC``.

libsvm predicts one row at a time: for every pair of classes ``(i, j)`` it sums the
kernel values of the row with the support vectors of both classes, weighted by their
dual coefficients, subtracts the pair's ``rho`` and gives the vote to ``i`` when the
result is positive and to ``j`` otherwise; the class with most votes wins, a tie going
to the first class (``svm_predict_values`` in libsvm's ``svm.cpp``). For the linear
kernel the sums of all rows and pairs are one matrix product with one weight vector
per pair (:func:`pair_weights`), which BLAS computes at a fraction of libsvm's cost.

The product adds the same terms in another order, so a decision value within rounding
of zero could take the other sign than libsvm's. :func:`ovo_predict` bounds that
rounding for every value (the same product on absolute values) and hands the rows
where any value lies within the bound back to ``SVC.predict``: the predictions are
libsvm's, row for row. What the vote does not reproduce goes to ``SVC.predict``
unchanged: other kernels, ``break_ties=True`` (the largest one-vs-rest value decides a
tied vote) and models fitted on sparse data.
"""

import numpy as np
from scipy import sparse
from sklearn.svm import SVC
from sklearn.utils._param_validation import validate_params
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["decision_bounds", "ovo_predict", "pair_weights"]

#: Rows per block of the matrix products (bounds the memory to ``rows x pairs`` values).
BLOCK_ROWS = 4096


def _pair_coefficients(model):
    """``(n_support_vectors, n_pairs)`` coefficients and ``(n_pairs,)`` intercepts of the
    pairs ``(i, j), i < j`` in libsvm's order, with libsvm's sign (positive: class ``i``)."""
    n_classes = len(model.classes_)
    dual, intercept = model.dual_coef_, model.intercept_
    if n_classes == 2:  # scikit-learn flips the binary case's signs; libsvm's are kept here
        dual, intercept = -dual, -intercept
    ends = np.cumsum(model.n_support_)
    starts = ends - model.n_support_
    pairs = [(i, j) for i in range(n_classes) for j in range(i + 1, n_classes)]
    C = np.zeros((dual.shape[1], len(pairs)))
    for p, (i, j) in enumerate(pairs):
        C[starts[i] : ends[i], p] = dual[j - 1, starts[i] : ends[i]]
        C[starts[j] : ends[j], p] = dual[i, starts[j] : ends[j]]
    return C, np.asarray(intercept, dtype=float), pairs


def pair_weights(model):
    """One weight vector per pair of classes of a fitted linear SVC.

    Returns
    -------
    W : ndarray of shape (n_pairs, n_features)
        ``sum_s c_s sv_s`` over the support vectors of the pair's two classes.
    b : ndarray of shape (n_pairs,)
        The pairs' intercepts (``-rho``); ``X @ W.T + b`` are libsvm's decision values.
    pairs : list of tuple
        Class indices ``(i, j), i < j``, in libsvm's order.
    """
    C, b, pairs = _pair_coefficients(model)
    return C.T @ model.support_vectors_, b, pairs


def _linear_parts(model):
    """Pair weights, their absolute counterparts, intercepts, pairs and error scale."""
    C, b, pairs = _pair_coefficients(model)
    sv = model.support_vectors_
    terms = sv.shape[0] + sv.shape[1] + 1
    scale = 4.0 * terms * np.finfo(float).eps
    return C.T @ sv, np.abs(C).T @ np.abs(sv), b, pairs, scale


def _values_and_bounds(parts, X):
    """Decision values of ``X`` and their rounding bounds from :func:`_linear_parts`."""
    W, W_abs, b, _, scale = parts
    return X @ W.T + b, scale * (np.abs(X) @ W_abs.T + np.abs(b))


def decision_bounds(model, X):
    """libsvm's one-vs-one decision values of ``X`` and a bound on their rounding error.

    Returns
    -------
    values, bounds : ndarray of shape (n_samples, n_pairs)
        ``bounds`` exceeds the distance of each value, and of libsvm's own sum, from
        the exact value: ``4 m eps`` times the sum of the absolute terms, with ``m``
        the number of terms (features plus support vectors).
    """
    return _values_and_bounds(_linear_parts(model), np.asarray(X, dtype=float))


def _votes(values, pairs, n_classes):
    """Class index of each row by libsvm's vote (ties: the first class)."""
    votes = np.zeros((values.shape[0], n_classes), dtype=np.int64)
    for p, (i, j) in enumerate(pairs):
        positive = values[:, p] > 0
        votes[:, i] += positive
        votes[:, j] += ~positive
    return np.argmax(votes, axis=1)


def _votes_alone(model):
    """Whether libsvm's one-vs-one vote alone decides ``model.predict`` on dense rows:
    a linear kernel, fitted on dense data, ties not broken by the one-vs-rest values."""
    broken_ties = model.break_ties and len(model.classes_) > 2
    return (
        model.kernel == "linear" and not broken_ties and not sparse.issparse(model.support_vectors_)
    )


@validate_params({"model": [SVC], "X": "no_validation"}, prefer_skip_nested_validation=True)
def ovo_predict(model, X):
    """``model.predict(X)`` of a fitted ``SVC``, by matrix products for the linear kernel.

    Parameters
    ----------
    model : sklearn.svm.SVC
        Fitted, ``decision_function_shape`` irrelevant (libsvm votes one-vs-one).
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    ndarray of shape (n_samples,)
        Equal to ``model.predict(X)`` on every row: rows with a decision value within
        its rounding bound of zero are predicted by ``model.predict``.

    Raises
    ------
    ValueError
        As ``model.predict``: ``X`` with NaN or infinite values, no rows, or another
        number of features than the model was fitted on.
    """
    check_is_fitted(model)
    X = validate_data(model, X, reset=False, dtype=np.float64, accept_sparse="csr")
    if not _votes_alone(model) or sparse.issparse(X):
        return model.predict(X)
    parts = _linear_parts(model)
    labels = np.empty(X.shape[0], dtype=model.classes_.dtype)
    for start in range(0, X.shape[0], BLOCK_ROWS):
        block = X[start : start + BLOCK_ROWS]
        values, bounds = _values_and_bounds(parts, block)
        index = _votes(values, parts[3], len(model.classes_))
        out = labels[start : start + len(block)]
        out[:] = model.classes_[index]
        unsure = np.any(np.abs(values) <= bounds, axis=1)
        if unsure.any():
            out[unsure] = model.predict(block[unsure])
    return labels

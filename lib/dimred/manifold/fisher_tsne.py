"""Fisher t-SNE: t-SNE on the Fisher metric of a Parzen classifier of the labels."""

import numbers

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.manifold import TSNE
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import validate_data

from ..utils.validation import check_spread
from .fisher_metric import check_partly_labelled, parzen_width
from .fisher_paths import RULES, fisher_distances, fisher_neighbors

__all__ = ["FisherTSNE"]

_METHODS = ("barnes_hut", "exact")


class FisherTSNE(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Fisher t-SNE (F-t-SNE): t-SNE on the Riemannian distances of the Fisher metric.

    Gisbrecht, Schulz & Hammer (Neurocomputing 147, 2015, ref. [5] of Schulz,
    Gisbrecht & Hammer, ESANN 2014) make t-SNE discriminative by replacing
    the Euclidean distance with the distance of the learning metric
    ``J(x)``, the Fisher information of a Parzen estimate of ``p(c|x)``
    (Kaski & Sinkkonen; Peltonen, Klami & Kaski 2004), approximated by the
    ``T``-point length of the straight path
    (:mod:`dimred.manifold.fisher_metric`). The choices:

    - Parzen width ``sigma``: by default the leave-one-out likelihood
      maximiser of :func:`~dimred.manifold.fisher_metric.parzen_width`;
    - ``n_steps = T = 10`` path points, midpoint rule (``rule="left"``:
      Peltonen et al.'s segment starts);
    - the path points' Parzen sums include every training point (the
      metric is one smooth field);
    - t-SNE's input similarities are ``exp(-d_T^2 / (2 sigma_i^2))``: the
      Fisher distance replaces the Euclidean one and is squared as t-SNE
      squares Euclidean distances (scikit-learn squares precomputed
      distances);
    - ``method="exact"``: the dense reference distances
      (:func:`~dimred.manifold.fisher_paths.fisher_distances`, ``O(N^3 T
      d)``) and exact t-SNE: the dense construction of ref. [5];
      ``method="barnes_hut"``: each point's ``3 * perplexity + 1`` nearest
      Fisher neighbours among candidate pairs
      (:func:`~dimred.manifold.fisher_paths.fisher_neighbors`) and
      Barnes-Hut t-SNE, which uses exactly those neighbours;
    - initialisation ``init="random"`` (PCA initialisation needs
      coordinates; scikit-learn refuses it with precomputed distances).

    Like :class:`sklearn.manifold.TSNE`, the embedding is of the training
    data only: there is no ``transform``.

    Parameters
    ----------
    n_components : int, default=2
        Dimension of the embedding (at most 3 with ``"barnes_hut"``).
    perplexity : float, default=30.0
        t-SNE's perplexity, smaller than ``n_samples``.
    sigma : float, optional
        Parzen width; default: chosen by leave-one-out likelihood.
    n_steps : int, default=10
        ``T``, path points per distance.
    rule : {"midpoint", "left"}, default="midpoint"
        Where each path segment's metric is evaluated.
    method : {"barnes_hut", "exact"}, default="barnes_hut"
    n_candidates : int, optional
        Euclidean candidates per point for ``"barnes_hut"``, of its own class
        and of any class; default twice the ``3 * perplexity + 1`` neighbours
        (:func:`~dimred.manifold.fisher_paths.fisher_neighbors`).
    early_exaggeration, learning_rate, max_iter
        As :class:`sklearn.manifold.TSNE` (defaults 12.0, ``"auto"``, 1000).
    random_state : int, RandomState instance or None, default=None
        Seeds t-SNE's random initialisation; the distances are deterministic.
    n_jobs : int, optional
        Threads for the Fisher distances and t-SNE's neighbour search.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    sigma_ : float
        The Parzen width used.
    distances_ : ndarray of shape (n_samples, n_samples) or scipy.sparse.csr_matrix
        The dense Fisher distances (``"exact"``) or the sparse graph of each
        point's nearest Fisher neighbours (``"barnes_hut"``).
    classes_ : ndarray of shape (n_classes,)
    kl_divergence_ : float
        t-SNE's final Kullback-Leibler divergence.
    n_iter_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string feature names.

    Examples
    --------
    Every third flower of the iris data, 50 points: on so few the exact method is the
    faster one. The classes lie further apart in the embedding than in the input space,
    as the 5-NN accuracy shows.

    >>> from sklearn.datasets import load_iris
    >>> from dimred import FisherTSNE
    >>> from dimred.metrics import knn_accuracy
    >>> X, y = load_iris(return_X_y=True)
    >>> X, y = X[::3], y[::3]
    >>> tsne = FisherTSNE(perplexity=10, method="exact", max_iter=500, random_state=0)
    >>> Z = tsne.fit_transform(X, y)
    >>> Z.shape
    (50, 2)
    >>> round(tsne.sigma_, 2)
    0.15
    >>> round(knn_accuracy(X, y), 2)
    0.94
    >>> knn_accuracy(Z, y) > 0.94
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "perplexity": [Interval(numbers.Real, 0, None, closed="neither")],
        "sigma": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "n_steps": [Interval(numbers.Integral, 1, None, closed="left")],
        "rule": [StrOptions(set(RULES))],
        "method": [StrOptions(set(_METHODS))],
        "n_candidates": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "early_exaggeration": [Interval(numbers.Real, 1, None, closed="left")],
        "learning_rate": [StrOptions({"auto"}), Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, 250, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(
        self,
        n_components=2,
        perplexity=30.0,
        sigma=None,
        n_steps=10,
        rule="midpoint",
        method="barnes_hut",
        n_candidates=None,
        early_exaggeration=12.0,
        learning_rate="auto",
        max_iter=1000,
        random_state=None,
        n_jobs=None,
    ):
        self.n_components = n_components
        self.perplexity = perplexity
        self.sigma = sigma
        self.n_steps = n_steps
        self.rule = rule
        self.method = method
        self.n_candidates = n_candidates
        self.early_exaggeration = early_exaggeration
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.random_state = random_state
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, labelled=None):
        """Embed the data ``X``, its metric learned from the labels.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels (at least two classes among the labelled points).
        labelled : array-like of bool of shape (n_samples,), optional
            Which labels the metric may use; the others are ignored and their
            points embedded without them (e.g. a test set, so that its labels
            cannot leak into the embedding). Default: all.

        Returns
        -------
        self : FisherTSNE
        """
        self.fit_transform(X, y, labelled)
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y, labelled=None):
        """Embed the data ``X`` and return the embedding (parameters as :meth:`fit`).

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        self._check_params(X.shape[0])
        name = type(self).__name__
        X, mask, self.classes_, codes = check_partly_labelled(X, y, labelled, name)
        check_spread(X, name)
        self.sigma_ = (
            parzen_width(X[mask], codes[mask]) if self.sigma is None else float(self.sigma)
        )
        self.distances_ = self._fisher_distances(X, codes, mask)
        tsne = TSNE(
            n_components=self.n_components,
            perplexity=self.perplexity,
            early_exaggeration=self.early_exaggeration,
            learning_rate=self.learning_rate,
            max_iter=self.max_iter,
            metric="precomputed",
            init="random",
            method=self.method,
            random_state=self.random_state,
            n_jobs=self.n_jobs,
        )
        self.embedding_ = tsne.fit_transform(self.distances_.copy())  # TSNE squares in place
        self.kl_divergence_, self.n_iter_ = tsne.kl_divergence_, tsne.n_iter_
        return self.embedding_

    def _fisher_distances(self, X, codes, labelled):
        """Dense reference distances (``"exact"``) or the sparse neighbour graph."""
        if self.method == "exact":
            return fisher_distances(X, codes, self.sigma_, self.n_steps, self.rule, labelled)
        n_neighbors = min(X.shape[0] - 1, int(3.0 * self.perplexity + 1))  # as TSNE's
        return fisher_neighbors(
            X,
            codes,
            n_neighbors,
            labelled=labelled,
            sigma=self.sigma_,
            n_steps=self.n_steps,
            rule=self.rule,
            n_candidates=self.n_candidates,
            n_jobs=self.n_jobs,
        )

    def _check_params(self, n_samples):
        """Refuse a perplexity the data cannot give (the types and ranges of every
        parameter are :attr:`_parameter_constraints`')."""
        if self.perplexity >= n_samples:
            raise ValueError(
                f"{type(self).__name__}: perplexity={self.perplexity!r} must be smaller than "
                f"n_samples = {n_samples}."
            )

    @property
    def _n_features_out(self):
        return self.embedding_.shape[1]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

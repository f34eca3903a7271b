"""Fully connected autoencoder of the AwA2 survey (Feng, Li & Xu 2020, Sects. II-I and III-J).

The survey reduces the 2,048 ResNet features of AwA2 with an autoencoder trained in
PyTorch: an encoder ``phi`` of four linear layers (2048, 1024, 512, 512, d) with a
ReLU between consecutive layers, a mirrored decoder ``psi`` (d, 512, 512, 1024,
2048), trained to minimise the reconstruction error ``||X - psi(phi(X))||^2``
(Eq. 15) with mini-batches of 128 and a learning rate that "shrinks from 10^-3 to
10^-4 exponentially for 200 epochs". The authors' ``AutoEncoder.py`` (see
``data/published/awa2_dr_survey/AUTHORS_CODE.md``, "Autoencoder") fixes what the
text leaves open: no activation on the code or the output, PyTorch's default
initialisation, ``nn.MSELoss()`` (mean), the rate ``np.logspace(-3, -4, 200)[e]``
set at the start of epoch ``e``, shuffled batches, and the Adam optimiser, although
the paper says SGD. :class:`Autoencoder` implements both (``solver``).
"""

import numbers

import numpy as np
import torch
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_array, check_is_fitted, validate_data
from torch import nn
from tqdm import tqdm

from ..utils.validation import check_spread

__all__ = ["Autoencoder", "learning_rate_schedule", "resolve_device"]


#: Largest magnitude the float32 network accepts: its squared errors must stay finite.
FLOAT32_LIMIT = 2.0**60


def _check_scale(X, name):
    """Refuse constant data and values whose squares float32 cannot hold."""
    check_spread(X, name)
    largest = float(np.abs(X).max())
    if largest > FLOAT32_LIMIT:
        raise ValueError(
            f"{name}: X reaches {largest:.3g}; the network trains in float32, whose squared "
            f"errors overflow beyond about {FLOAT32_LIMIT:.1g}: rescale X (e.g. with "
            "sklearn.preprocessing.StandardScaler)."
        )
    check_spread(X.astype(np.float32), f"{name} (in float32)")


def learning_rate_schedule(init, end, n_epochs):
    """Learning rate of each epoch, decaying exponentially from ``init`` to ``end``.

    The authors' code sets ``LR_LIST = np.logspace(-3, -4, 200)`` and uses
    ``LR_LIST[e]`` for the whole epoch ``e`` (paper, Sect. III-J: the rate
    "shrinks from 10^-3 to 10^-4 exponentially for 200 epochs").

    Parameters
    ----------
    init, end : float
        Rates of the first and the last epoch, both positive.
    n_epochs : int
        Number of epochs; a single epoch uses ``init``.

    Returns
    -------
    rates : ndarray of shape (n_epochs,)
        ``np.logspace(log10(init), log10(end), n_epochs)``.

    Examples
    --------
    The authors' schedule, from 1e-3 to 1e-4 over 200 epochs, a constant ratio per epoch:

    >>> import numpy as np
    >>> from dimred.neural import learning_rate_schedule
    >>> rates = learning_rate_schedule(1e-3, 1e-4, 200)
    >>> rates.shape
    (200,)
    >>> bool(np.allclose(rates[[0, -1]], [1e-3, 1e-4]))
    True
    >>> bool(np.allclose(rates[1:] / rates[:-1], 10 ** (-1 / 199)))
    True
    """
    return np.logspace(np.log10(init), np.log10(end), n_epochs)


def resolve_device(device="auto"):
    """The torch device an :class:`Autoencoder` trains on.

    Parameters
    ----------
    device : str, default="auto"
        ``"auto"``: CUDA when torch sees a GPU, else the CPU; ``"cpu"``; ``"cuda"``
        or ``"cuda:<index>"`` (refused when no GPU is available).

    Returns
    -------
    str
    """
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu":
        return device
    if isinstance(device, str) and device.split(":")[0] == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"device={device!r}, but torch sees no CUDA GPU on this machine.")
        return device
    raise ValueError(f"device must be 'auto', 'cpu' or 'cuda[:index]', got {device!r}.")


def _mlp(sizes):
    """Linear layers between consecutive ``sizes``, a ReLU between two, none at the end."""
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True):
        layers += [nn.Linear(n_in, n_out), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


class Autoencoder(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Autoencoder with ReLU hidden layers and a linear code, as in the AwA2 survey.

    The encoder maps ``n_features -> hidden_layer_sizes -> n_components`` and the
    decoder mirrors it, ``n_components -> reversed(hidden_layer_sizes) ->
    n_features``; all layers are linear with a ReLU between two consecutive ones,
    so neither the code nor the reconstruction passes through an activation
    (paper, Sect. III-J: "4 linear layers and 3 ReLUs between each linear layer";
    authors' ``AutoEncoder.py`` l.28-45). Weights take PyTorch's default
    initialisation. Training minimises the mean squared reconstruction error
    (``nn.MSELoss()``, l.113; Eq. 15 of Sect. II-I) over mini-batches of
    ``batch_size`` rows, reshuffled at every epoch, for ``max_epochs`` epochs,
    with no early stopping ("trained to convergence" means the 200 epochs of the
    code). The learning rate of epoch ``e`` is
    ``learning_rate_schedule(learning_rate_init, learning_rate_end, max_epochs)[e]``,
    as the code's ``LR_LIST = np.logspace(-3, -4, 200)`` (l.64, ``update_lr``
    l.118).

    Computations run in float32, on a GPU when ``device`` asks for one (the
    default ``"auto"`` takes CUDA when torch sees it) and otherwise on the CPU, with
    torch's thread settings left as they are. The initial weights and the order of the
    batches are drawn on the CPU, so both devices start from the same model and see
    the same batches; their results differ by float32 rounding only. The trained
    networks are kept on the CPU.

    Parameters
    ----------
    n_components : int, default=2
        Dimension ``d`` of the code; the survey tries 2, 4, ..., 512 and reports
        the best accuracy at 128 and 256 (Table XIII).
    hidden_layer_sizes : tuple of int, default=(1024, 512, 512)
        Widths of the encoder's hidden layers, the decoder's in reverse order
        (the paper's architecture by default; smaller ones train faster).
    solver : {"adam", "sgd"}, default="adam"
        ``"adam"``: ``torch.optim.Adam`` with betas (0.9, 0.999), eps 1e-8, no
        weight decay, which is what the authors' code ran (l.111-112).
        ``"sgd"``: plain ``torch.optim.SGD`` without momentum, which is what the
        paper's text states ("we simply use the stochastic gradient descent
        (SGD) method"). The two disagree; the published numbers come from Adam.
    learning_rate_init : float, default=1e-3
        Learning rate of the first epoch.
    learning_rate_end : float, default=1e-4
        Learning rate of the last epoch.
    max_epochs : int, default=200
        Number of passes over the data.
    batch_size : int, default=128
        Rows per mini-batch (the last batch of an epoch may be smaller); also the
        rows per batch of :meth:`transform` and :meth:`inverse_transform`.
    random_state : int, RandomState instance or None, default=None
        Seeds the initial weights and the shuffling; the same value gives the same
        model. The global torch random state is left untouched. The authors' code
        sets no seed.
    verbose : bool, default=False
        Show a progress bar over the epochs.
    device : str, default="auto"
        Where to train (:func:`resolve_device`): ``"auto"``, ``"cpu"``, ``"cuda"``.

    Attributes
    ----------
    encoder_ : torch.nn.Sequential
        Trained encoder ``phi``.
    decoder_ : torch.nn.Sequential
        Trained decoder ``psi``.
    loss_curve_ : list of float
        Training MSE of each epoch: the mean of the mini-batch losses weighted by
        their sizes, i.e. the MSE over all samples as seen during the epoch (the
        "reconstruction loss" of the paper's Fig. 11, which shows the last value).
    learning_rates_ : list of float
        Learning rate the optimiser used at each epoch.
    n_epochs_ : int
        Number of epochs run (``max_epochs``).
    device_ : str
        The device the network was trained on.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of the features seen during fit, when ``X`` has string column names.

    Notes
    -----
    The authors trained on all 37,322 AwA2 samples, test split included (the
    method is unsupervised but was used transductively), and encoded the same
    data. On 2 CPU cores, one Adam epoch of the paper's architecture over
    37,322 x 2,048 float32 data with batches of 128 takes about 12 s
    (extrapolated from 5,000 and 10,000 rows), so the 200 epochs about 40 min.

    References
    ----------
    Feng, Li & Xu (2020), "Dimensionality reduction: a survey on AwA2", Sects. II-I
    and III-J, Table XIII, Figs. 11 and 15.

    Examples
    --------
    >>> import numpy as np
    >>> from dimred.neural import Autoencoder
    >>> X = np.random.default_rng(0).normal(size=(100, 6))
    >>> ae = Autoencoder(n_components=2, hidden_layer_sizes=(8,), max_epochs=5, random_state=0)
    >>> ae.fit_transform(X).shape
    (100, 2)
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "hidden_layer_sizes": ["array-like"],
        "solver": [StrOptions({"adam", "sgd"})],
        "learning_rate_init": [Interval(numbers.Real, 0, None, closed="neither")],
        "learning_rate_end": [Interval(numbers.Real, 0, None, closed="neither")],
        "max_epochs": [Interval(numbers.Integral, 1, None, closed="left")],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
        "device": [str],
    }

    def __init__(
        self,
        n_components=2,
        hidden_layer_sizes=(1024, 512, 512),
        solver="adam",
        learning_rate_init=1e-3,
        learning_rate_end=1e-4,
        max_epochs=200,
        batch_size=128,
        random_state=None,
        verbose=False,
        device="auto",
    ):
        self.n_components = n_components
        self.hidden_layer_sizes = hidden_layer_sizes
        self.solver = solver
        self.learning_rate_init = learning_rate_init
        self.learning_rate_end = learning_rate_end
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.random_state = random_state
        self.verbose = verbose
        self.device = device

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Train the autoencoder to reconstruct ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; float32 and float64 are used as given, other types
            are converted to float32.
        y : None
            Ignored.

        Returns
        -------
        self : Autoencoder
            The fitted estimator.
        """
        hidden = list(self.hidden_layer_sizes)
        if not all(isinstance(size, numbers.Integral) and size > 0 for size in hidden):
            raise ValueError(
                f"hidden_layer_sizes must hold positive integers, got {self.hidden_layer_sizes!r}."
            )
        X = validate_data(self, X, dtype=[np.float32, np.float64], ensure_min_samples=2)
        _check_scale(X, type(self).__name__)
        n_samples, n_features = X.shape
        device = resolve_device(self.device)
        seed = check_random_state(self.random_state).randint(2**31 - 1)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.encoder_ = _mlp([n_features, *hidden, self.n_components])
            self.decoder_ = _mlp([self.n_components, *hidden[::-1], n_features])
        model = nn.Sequential(self.encoder_, self.decoder_).to(device)
        if self.solver == "adam":
            optimizer = torch.optim.Adam(model.parameters(), betas=(0.9, 0.999), eps=1e-8)
        else:
            optimizer = torch.optim.SGD(model.parameters())
        shuffle = torch.Generator().manual_seed(seed)
        loss_function = nn.MSELoss()
        rates = learning_rate_schedule(
            self.learning_rate_init, self.learning_rate_end, self.max_epochs
        )
        self.loss_curve_, self.learning_rates_ = [], []
        model.train()
        for rate in tqdm(rates, desc="Autoencoder", unit="epoch", disable=not self.verbose):
            for group in optimizer.param_groups:
                group["lr"] = float(rate)
            self.learning_rates_.append(optimizer.param_groups[0]["lr"])
            order = torch.randperm(n_samples, generator=shuffle).numpy()
            total = 0.0
            for start in range(0, n_samples, self.batch_size):
                rows = X[order[start : start + self.batch_size]]
                batch = torch.tensor(rows, dtype=torch.float32, device=device)
                loss = loss_function(model(batch), batch)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                total += loss.item() * len(batch)
            if not np.isfinite(total):
                raise ValueError(
                    f"{type(self).__name__}: training diverged in epoch "
                    f"{len(self.loss_curve_) + 1} (the loss is not finite); standardise X or "
                    "lower learning_rate_init."
                )
            self.loss_curve_.append(total / n_samples)
        model.eval().to("cpu")
        self.n_epochs_, self.device_ = self.max_epochs, device
        return self

    def transform(self, X):
        """Encode ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Data to encode.

        Returns
        -------
        codes : ndarray of shape (n_samples, n_components)
            Codes ``phi(X)``, float64.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=[np.float32, np.float64], reset=False)
        return self._apply(self.encoder_, X)

    def inverse_transform(self, X):
        """Decode codes back to the input space.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_components)
            Codes, e.g. from :meth:`transform`.

        Returns
        -------
        X_reconstructed : ndarray of shape (n_samples, n_features_in_)
            Reconstructions ``psi(X)``, float64.
        """
        check_is_fitted(self)
        Z = check_array(X, dtype=[np.float32, np.float64])
        if Z.shape[1] != self.n_components:
            raise ValueError(
                f"X has {Z.shape[1]} features, but inverse_transform expects codes of "
                f"{self.n_components} features."
            )
        return self._apply(self.decoder_, Z)

    def score(self, X, y=None):
        """Negative mean squared reconstruction error of ``X`` (higher is better).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Data to reconstruct.
        y : None
            Ignored.

        Returns
        -------
        score : float
            ``-mean((X - psi(phi(X)))**2)``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=[np.float32, np.float64], reset=False)
        reconstruction = self._apply(self.decoder_, self._apply(self.encoder_, X))
        return -float(np.mean((X - reconstruction) ** 2))

    @property
    def _n_features_out(self):
        """Number of output features, for :meth:`get_feature_names_out`."""
        return self.encoder_[-1].out_features

    def _apply(self, module, X):
        """``module`` on the rows of ``X`` in float32 batches, without gradients, as float64."""
        with torch.no_grad():
            parts = [
                module(torch.tensor(X[start : start + self.batch_size], dtype=torch.float32))
                for start in range(0, len(X), self.batch_size)
            ]
        return torch.cat(parts).numpy().astype(np.float64)

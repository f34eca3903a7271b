"""Feature rankings in the notation of the paper's Table 1, and their comparison.

The paper writes a ranking of the most relevant features as groups separated by
``>`` or ``>>``, a group in parentheses being unordered, e.g. ``"(1, 2) >> 3"`` or
``"2 > (1, 3, 4)"``. Features are numbered from 1. ``>`` and ``>>`` (a large gap)
are both read as "ranked before": the paper gives no rule for the gap, so the
comparison is of orderings only (the relevance values are tabulated beside).

A relevance vector ranks its features by decreasing relevance for ``lambda_NeRV`` and
``lambda_forward`` and by increasing quality for ``lambda_backward`` (the quality
left when the feature is removed: the lower, the more relevant), ties by feature
index.
"""

import re

import numpy as np

__all__ = ["DESCENDING", "agrees", "format_ranking", "parse_ranking", "ranking_of"]

#: Whether a larger value of a scheme means a more relevant feature.
DESCENDING = {"nerv": True, "forward": True, "backward": False}


def parse_ranking(text):
    """The groups of a ranking in the paper's notation, most relevant first.

    Parameters
    ----------
    text : str
        E.g. ``"3 > 2 >> 1"`` or ``"(1, 2) >> 3"``.

    Returns
    -------
    list of frozenset of int
        One set per group, 1-based feature numbers.

    Raises
    ------
    ValueError
        If ``text`` is not of that form or names a feature twice.
    """
    groups = []
    for part in re.split(r">>?", text):
        part = part.strip()
        match = re.fullmatch(r"\(\s*(\d+(?:\s*,\s*\d+)+)\s*\)|(\d+)", part)
        if match is None:
            raise ValueError(f"Cannot read the ranking {text!r}: bad group {part!r}.")
        groups.append(frozenset(int(f) for f in re.findall(r"\d+", part)))
    named = [f for group in groups for f in group]
    if len(named) != len(set(named)):
        raise ValueError(f"The ranking {text!r} names a feature twice.")
    return groups


def ranking_of(relevance, scheme):
    """1-based features from most to least relevant under ``scheme`` (ties by index).

    Parameters
    ----------
    relevance : array-like of shape (n_features,)
    scheme : {"nerv", "forward", "backward"}

    Returns
    -------
    ndarray of int
    """
    relevance = np.asarray(relevance, dtype=float)
    keys = -relevance if DESCENDING[scheme] else relevance
    return np.argsort(keys, kind="stable") + 1


def agrees(groups, ranking):
    """Whether ``ranking`` (most relevant first) starts with the paper's ``groups`` in order.

    The first ``len(groups[0])`` features must be ``groups[0]`` in any order, the next
    ones ``groups[1]``, and so on; features after the groups are not compared.
    """
    start = 0
    for group in groups:
        if set(ranking[start : start + len(group)].tolist()) != group:
            return False
        start += len(group)
    return True


def format_ranking(ranking, groups):
    """Our ranking's first features, as many as the paper names, in the grouping of ``groups``.

    A group is printed in parentheses when its features are those of the paper's
    group (so that unordered groups read alike); otherwise every feature is its own.
    """
    parts, start = [], 0
    for group in groups:
        chunk = ranking[start : start + len(group)].tolist()
        if len(group) > 1 and set(chunk) == group:
            parts.append("(" + ", ".join(str(f) for f in sorted(chunk)) + ")")
        else:
            parts.extend(str(f) for f in chunk)
        start += len(group)
    return " > ".join(parts)

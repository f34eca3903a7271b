"""What the compiled kernels of two families share (the Fisher path lengths of
:mod:`dimred.manifold.fisher_compiled`, NeRV's pair terms of
:mod:`dimred.relevance.nerv_compiled`): numba's floating-point licences and a vectorised
row maximum."""

from numba import njit

__all__ = ["FASTMATH", "largest"]

#: numba's floating-point licences: sums and maxima in any order, vectorised (the
#: values are finite), products and sums fused.
FASTMATH = {"reassoc", "contract", "nnan", "ninf", "nsz"}


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def largest(row, lanes):
    """``row.max()`` in ``lanes.size`` running maxima (a maximum is exact in any order;
    as one running maximum the loop is not vectorised, and half as fast)."""
    width = lanes.size
    lanes[:] = row[0]
    end = row.size - row.size % width
    for j in range(0, end, width):
        for u in range(width):
            lanes[u] = max(lanes[u], row[j + u])
    top = lanes.max()
    for j in range(end, row.size):
        top = max(top, row[j])
    return top

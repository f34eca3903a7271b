"""Cost of a call: its wall time and peak memory, measured in a fresh child process
(:func:`measure`), and the growth exponent of costs measured at several sizes
(:func:`fit_exponent`).

Why a child process: the peak resident memory of a process (``ru_maxrss``) is a
high-water mark over its whole life, so in the caller it would include whatever the
caller held or freed before. A child started for the call has only its imports and the
call's arguments before the call; their peak is subtracted (the *baseline*).

Why ``forkserver`` and not ``spawn`` by default: on Linux, ``exec`` records the
high-water mark of the address space it replaces, and ``spawn`` forks (or vforks) the
caller before ``exec``, so a spawned child's ``ru_maxrss`` starts at the *caller's*
peak (a caller holding 500 MB gives children whose peak reads >= 500 MB, which hides any
call needing less). The fork server is started once (with this module preloaded, see
:func:`measure`) and forks the children without ``exec``: their high-water mark starts
at the server's size. Unix only (:mod:`resource`).
"""

import gc
import multiprocessing
import numbers
import pickle
import resource
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "RU_MAXRSS_UNIT",
    "START_METHODS",
    "Measurement",
    "PowerLaw",
    "RemoteTraceback",
    "fit_exponent",
    "high_water_mark",
    "measure",
    "peak_rss",
]

#: Bytes per unit of ``ru_maxrss``: kibibytes on Linux, bytes on macOS.
RU_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024

#: Start methods :func:`measure` accepts (``fork`` would count the caller's memory).
START_METHODS = ("forkserver", "spawn")


@dataclass
class Measurement:
    """What :func:`measure` measured of one call.

    Attributes
    ----------
    wall_time : float
        Seconds the call took in the child (``time.perf_counter`` around it; the
        start of the child, its imports and the transfers are not counted). When
        the call timed out: the seconds waited, i.e. ``timeout``.
    peak_memory : int or None
        Bytes: the child's peak resident set size (``ru_maxrss``) after the call
        minus ``baseline_memory``, i.e. the memory the call needed beyond the
        child's interpreter, its imports and the call's arguments. None when timed out.
    baseline_memory : int or None
        Bytes: the child's peak resident set size just before the call (after its
        imports and the unpickling of the arguments). None when the child was
        killed before reporting it.
    peak_reset : bool
        Whether the child could reset its high-water mark to its current resident
        size before the call (Linux, ``/proc/self/clear_refs``). When it could not,
        the baseline is the peak of the start-up, and memory the start-up freed
        again hides up to that much of the call's.
    timed_out : bool
    result : object
        The call's return value when ``return_result=True``, else None.
    """

    wall_time: float
    peak_memory: int | None
    baseline_memory: int | None
    peak_reset: bool
    timed_out: bool = False
    result: Any = None


class RemoteTraceback(Exception):
    """The formatted traceback of an exception raised in :func:`measure`'s child;
    it is the ``__cause__`` of the exception re-raised in the caller."""

    def __init__(self, text):
        super().__init__(text)
        self.text = text

    def __str__(self):
        return f'\n"""\n{self.text}"""'


class PowerLaw(NamedTuple):
    """``value ~ prefactor * size ** exponent``, fitted by :func:`fit_exponent`."""

    exponent: float
    prefactor: float


def peak_rss():
    """Peak resident set size of the current process in bytes (``ru_maxrss``)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * RU_MAXRSS_UNIT


def measure(
    function,
    *args,
    return_result=False,
    timeout=None,
    start_method="forkserver",
    **kwargs,
):
    """Wall time and peak memory of ``function(*args, **kwargs)``, run in a fresh child.

    The call runs in a child process of the ``start_method`` context, so that the
    caller's memory does not count (see the module's docstring). The child
    receives the function and its arguments, imports what unpickling them needs,
    collects garbage, resets its high-water mark to its current resident size
    where the system allows (Linux), and records its peak resident set size
    (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) as the *baseline*. It then
    times the call and reports ``peak_memory = ru_maxrss - baseline`` measured
    right after the call (before any result is pickled). That is the extra memory
    the call needed at its peak, its arguments excluded (they are in the
    baseline), its result included.

    NumPy arrays among the arguments (and the result) travel as out-of-band
    pickle buffers received straight into place, so an argument of ``S`` bytes
    costs the child ``S``, not ``2 S``, during the transfer.

    Start-up: with ``forkserver``, the fork server (one per caller process,
    shared with other users of that start method) is asked to preload this
    module before it starts, so that each child starts in milliseconds; the first
    call pays the server's start (about 1.5 s, importing ``dimred``). With
    ``spawn`` every child imports ``dimred`` (about 1.5 s).

    Parameters
    ----------
    function : callable
        Picklable: a module-level function (or a ``functools.partial`` of one),
        importable in the child; lambdas and local functions are not.
    *args, **kwargs
        Passed to ``function``; picklable. Keyword arguments named like the
        parameters below cannot be passed through (use ``functools.partial``).
    return_result : bool, default=False
        Send the result back (it may be large) in ``Measurement.result``.
    timeout : float or None, default=None
        Seconds the call may take (counted from its start in the child, after
        the imports and the transfer of the arguments). When it runs longer, the
        child is killed and the measurement has ``timed_out=True``.
    start_method : {"forkserver", "spawn"}, default="forkserver"
        ``spawn`` children start with the caller's peak on Linux (see the
        module's docstring), so their memory is only meaningful for a small caller.

    Returns
    -------
    Measurement

    Raises
    ------
    Exception
        The exception the call raised in the child, re-raised with the child's
        message and its traceback as ``__cause__`` (a :class:`RemoteTraceback`).
        An exception that cannot be pickled and unpickled becomes a
        :class:`ChildProcessError` with its type and message.
    ChildProcessError
        When the child dies without reporting (killed, e.g. out of memory, or crashed).
    ValueError
        For an invalid ``timeout`` or ``start_method``.
    TypeError
        When ``function`` or its arguments cannot be pickled.
    """
    if start_method not in START_METHODS:
        raise ValueError(f"measure: start_method={start_method!r} must be one of {START_METHODS}.")
    if timeout is not None and not (isinstance(timeout, numbers.Real) and timeout > 0):
        raise ValueError(f"measure: timeout={timeout!r} must be a positive number or None.")
    try:
        payload = _dumps((function, args, kwargs, bool(return_result)))
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        raise TypeError(
            f"measure: {function!r} and its arguments must be picklable (a module-level "
            f"function): {error}"
        ) from error
    context = multiprocessing.get_context(start_method)
    if start_method == "forkserver":
        _preload_in_fork_server(context)
    connection, child_end = context.Pipe()
    process = context.Process(target=_child, args=(child_end,), daemon=True)
    process.start()
    child_end.close()
    try:
        try:
            _send(connection, payload)
        except OSError:  # the child died or gave up: its report, if any, says why
            pass
        message = _receive(connection, process)
        if message[0] == "started":
            _, baseline, reset = message
            if timeout is not None and not connection.poll(timeout):
                process.kill()
                return Measurement(float(timeout), None, baseline, reset, timed_out=True)
            message = _receive(connection, process)
        if message[0] == "raised":
            _reraise(*message[1:])
        _, wall_time, peak = message
        result = _receive_payload(connection, process) if return_result else None
        return Measurement(wall_time, peak - baseline, baseline, reset, result=result)
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        connection.close()


def fit_exponent(sizes, values):
    """Least-squares power law ``values ~ a * sizes ** b`` in log-log space.

    Fits ``log(values) = log(a) + b log(sizes)`` by ordinary least squares, the
    usual estimate of an empirical complexity (time or memory against input size):
    ``b`` near 1 for a linear cost, near 2 for a quadratic one.

    Parameters
    ----------
    sizes : array-like of shape (n,)
        Positive, at least 2 distinct values.
    values : array-like of shape (n,)
        Positive costs (a zero cost has no logarithm: drop it or add the resolution).

    Returns
    -------
    PowerLaw
        ``(exponent b, prefactor a)``.

    Raises
    ------
    ValueError
        For arrays that are not 1-D of the same length, not finite or not
        positive, or fewer than 2 distinct sizes.
    """
    sizes = np.asarray(sizes, dtype=float)
    values = np.asarray(values, dtype=float)
    if sizes.ndim != 1 or values.ndim != 1 or sizes.shape != values.shape:
        raise ValueError(
            f"fit_exponent: sizes and values must be 1-D of the same length, got shapes "
            f"{sizes.shape} and {values.shape}."
        )
    for array, name in ((sizes, "sizes"), (values, "values")):
        if not (np.all(np.isfinite(array)) and np.all(array > 0)):
            raise ValueError(f"fit_exponent: {name} must be finite and positive, got {array}.")
    if np.unique(sizes).size < 2:
        raise ValueError(
            f"fit_exponent: at least 2 distinct sizes are needed for an exponent, got {sizes}."
        )
    design = np.column_stack([np.ones_like(sizes), np.log(sizes)])
    (log_prefactor, exponent), *_ = np.linalg.lstsq(design, np.log(values), rcond=None)
    return PowerLaw(float(exponent), float(np.exp(log_prefactor)))


# ---------------------------------------------------------------------------- the child
def _preload_in_fork_server(context):
    """Ask the fork server, when it starts, to import this module (and so ``dimred``).

    Its children are forks of the server: with the module preloaded they start in
    milliseconds instead of importing ``dimred`` (about 1.5 s and 170 MB each, in the
    baseline). The modules already asked for (``__main__`` by default) are kept; once
    the server runs, the request has no effect (the children then import the module).
    """
    from multiprocessing import forkserver

    modules = list(getattr(forkserver._forkserver, "_preload_modules", ["__main__"]))
    if __name__ not in modules:
        context.set_forkserver_preload([*modules, __name__])


def _child(connection):
    """Receive the call, measure it, report (run in the child process)."""
    try:
        function, args, kwargs, return_result = _receive_payload(connection, None)
        gc.collect()
        reset = _reset_peak()
        baseline = peak_rss()
        connection.send(("started", baseline, reset))
        start = time.perf_counter()
        result = function(*args, **kwargs)
        wall_time = time.perf_counter() - start
        peak = peak_rss()
        if return_result:
            payload = _dumps(result)  # before reporting: an unpicklable result raises
        del result
        connection.send(("done", wall_time, peak))
        if return_result:
            _send(connection, payload)
    except BaseException as error:  # everything goes back to the caller
        text = traceback.format_exc()
        try:
            pickle.loads(pickle.dumps(error))  # the caller must be able to unpickle it
            picklable = error
        except Exception:
            picklable = None
        name = f"{type(error).__module__}.{type(error).__qualname__}"
        connection.send(("raised", picklable, name, str(error), text))
    finally:
        connection.close()


def _reset_peak(pid="self"):
    """Reset the high-water mark of a process's resident size to its current one
    (Linux >= 4.0, ``/proc/<pid>/clear_refs``); False when it cannot be reset."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        return False
    return True


def high_water_mark(pid="self"):
    """Bytes: a process's peak resident size since its start or its last reset
    (``VmHWM`` of ``/proc/<pid>/status``); None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


# ---------------------------------------------------------------------- the transfers
def _dumps(obj):
    """Pickle ``obj`` with its large buffers (NumPy arrays) out of band."""
    buffers = []
    data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
    return data, [buffer.raw() for buffer in buffers]


def _send(connection, payload):
    data, buffers = payload
    connection.send([buffer.nbytes for buffer in buffers])
    connection.send_bytes(data)
    for buffer in buffers:
        connection.send_bytes(buffer)


def _receive_payload(connection, process):
    """Receive what :func:`_send` sent; each buffer lands in its own (writable) bytearray."""
    sizes = _receive(connection, process)
    data = connection.recv_bytes()
    buffers = []
    for size in sizes:
        buffer = bytearray(size)
        if size:
            connection.recv_bytes_into(buffer)
        else:
            connection.recv_bytes()
        buffers.append(buffer)
    return pickle.loads(data, buffers=buffers)


def _receive(connection, process):
    """The next message, or a ChildProcessError when the child died without one."""
    try:
        return connection.recv()
    except (EOFError, ConnectionResetError):
        if process is None:
            raise
        process.join()
        raise ChildProcessError(
            f"measure: the child process exited with code {process.exitcode} before "
            "reporting (a negative code is the signal that killed it, -9 for example "
            "when it ran out of memory)."
        ) from None


def _reraise(error, name, message, text):
    cause = RemoteTraceback(text)
    if error is not None:
        raise error from cause
    raise ChildProcessError(f"{name}: {message}") from cause

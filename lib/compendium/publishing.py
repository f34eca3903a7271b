"""The published copy of an executed notebook, committed beside the paper's figures.

:func:`publish` turns an executed notebook into ``figures/<paper>/<paper>.ipynb``, for
GitHub, nbviewer and the book (``make book``): outputs and inline figures kept, but
every image at screen resolution, progress bars reduced to their last state, and no
path of the machine it ran on (the checkout becomes ``..``, as seen from
``notebooks/``, where the kernel runs).
"""

import base64
import io
import math
import re
import tempfile
from pathlib import Path

from . import paths

__all__ = ["MAX_IMAGE_BYTES", "MAX_IMAGE_WIDTH", "machine_paths", "publish", "tagged"]

#: Widest inline image a published notebook keeps, in pixels: a screen's width.
MAX_IMAGE_WIDTH = 1200
#: Largest inline PNG a published notebook keeps, in bytes.
MAX_IMAGE_BYTES = 150_000
#: The notebook metadata a published copy keeps; not jupytext's pairing (the copy is not a
#: source) nor papermill's record of where it ran.
_KEPT_METADATA = ("kernelspec", "language_info")
#: The output of an interactive widget (tqdm.auto's progress bars): its state is not saved,
#: so a published copy would show a stale bar.
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def publish(executed, destination, source=None, prefixes=None):
    """Write the published copy of an executed notebook.

    Outputs and inline figures are kept, with these changes: the markdown cells are those
    of ``source`` when it is given (the prose is no input of the run, so editing it calls
    for no new run: ``make`` reruns a paper when its code changes,
    :mod:`compendium.cells`); every PNG wider than
    :data:`MAX_IMAGE_WIDTH` or larger than :data:`MAX_IMAGE_BYTES` is scaled down
    (aspect kept); a progress bar written to a stream keeps its last state and a widget's
    progress bar is left out; every path of the machine (:func:`machine_paths`) is
    replaced, in sources, outputs and parameters; the metadata keep the kernel, the
    language, the parameters and the run's duration, and no time stamp.

    Parameters
    ----------
    executed : str or Path
        A notebook papermill ran to its end (``build/<paper>.ipynb``).
    destination : str or Path
        Where the published copy goes (``figures/<paper>/<paper>.ipynb``).
    source : str or Path, optional
        The notebook that was run, as it is now (``notebooks/<paper>.ipynb``): its
        markdown cells replace the executed ones; its code cells must be those that ran.
    prefixes : dict of str to str, optional
        Path prefixes and what replaces each; default :func:`machine_paths`.

    Returns
    -------
    nbformat.NotebookNode
        The published notebook.

    Raises
    ------
    ValueError
        The run did not finish (papermill recorded no end time, or an exception), or
        its code is not the code of ``source``.
    """
    import nbformat

    notebook = nbformat.read(executed, as_version=4)
    run = notebook.metadata.get("papermill", {})
    if run.get("end_time") is None or run.get("exception"):
        raise ValueError(f"{executed}: the run did not finish; nothing published.")
    if source is not None:
        notebook.cells = _with_prose_of(notebook.cells, nbformat.read(source, as_version=4).cells)
    scrub = _scrubber(machine_paths() if prefixes is None else prefixes)
    notebook.metadata = _published_metadata(notebook.metadata, scrub)
    for cell in notebook.cells:
        cell.metadata = {key: value for key, value in cell.metadata.items() if key == "tags"}
        if cell.cell_type == "code":
            cell.source = scrub(cell.source)
            cell.outputs = [
                _published_output(output, scrub)
                for output in _coalesced(cell.outputs)
                if _WIDGET_VIEW not in output.get("data", {})
            ]
    nbformat.validate(notebook)
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, destination)
    return notebook


def _with_prose_of(executed, source):
    """The executed cells with the markdown cells of ``source`` in place of theirs.

    Raises
    ------
    ValueError
        The code cells that ran (all but papermill's injected parameters) are not the code
        cells of ``source``.
    """
    injected = [cell for cell in executed if tagged(cell, "injected-parameters")]
    ran = [
        cell
        for cell in executed
        if cell.cell_type == "code" and not tagged(cell, "injected-parameters")
    ]
    code = [cell for cell in source if cell.cell_type == "code"]
    if [cell.source for cell in ran] != [cell.source for cell in code]:
        raise ValueError("its code is not the code of the notebook now: run it again.")
    ran = iter(ran)
    cells = []
    for cell in source:
        cells.append(next(ran) if cell.cell_type == "code" else cell)
        cells += injected if tagged(cell, "parameters") else []
    return cells


def tagged(cell, tag):
    """Whether the notebook cell ``cell`` carries ``tag`` (``parameters``, ...)."""
    return tag in cell.metadata.get("tags", [])


def machine_paths():
    """The paths a published notebook must not show, each with what replaces it.

    The checkout becomes ``..`` (the kernel runs in ``notebooks/``), the data cache and
    mirror the variables that set them, the temporary folder ``$TMPDIR`` and the home
    folder ``~``.

    Returns
    -------
    dict of str to str
    """
    places = {
        paths.ROOT: "..",
        paths.cache_dir(): "$DIMRED_DATA_CACHE",
        paths.mirror_dir() or paths.SHARED_MIRROR: "$DIMRED_DATA_MIRROR",
        Path(tempfile.gettempdir()): "$TMPDIR",
        Path.home(): "~",
    }
    return {
        str(form): label
        for place, label in places.items()
        for form in {Path(place).absolute(), Path(place).resolve()}
        if len(form.parts) > 1
    }


def _scrubber(prefixes):
    """A function replacing each of ``prefixes`` (longest first) where a path starts with it."""
    if not prefixes:
        return lambda text: text
    ordered = sorted(prefixes, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(prefix) + r"(?![\w.-])" for prefix in ordered))
    return lambda text: pattern.sub(lambda match: prefixes[match.group(0)], text)


def _published_metadata(metadata, scrub):
    """The metadata a published notebook keeps (:data:`_KEPT_METADATA`, the run's parameters
    and duration)."""
    run = metadata.get("papermill", {})
    parameters = {
        name: scrub(value) if isinstance(value, str) else value
        for name, value in run.get("parameters", {}).items()
    }
    kept = {key: metadata[key] for key in _KEPT_METADATA if key in metadata}
    return {**kept, "papermill": {"parameters": parameters, "duration": run.get("duration")}}


def _coalesced(outputs):
    """``outputs`` with each run of consecutive writes to one stream joined into one output
    (papermill records every write apart: a progress bar's every update)."""
    joined = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and previous is not None
            and previous.output_type == "stream"
            and previous.name == output.name
        ):
            previous.text += output.text
        else:
            joined.append(output)
    return joined


def _published_output(output, scrub):
    """One output as published: streams at their last state, PNGs at screen size, text
    without machine paths."""
    if output.output_type == "stream":
        output.text = scrub(_last_state(output.text))
    else:
        output.data = {
            mime: _screen_png(value) if mime == "image/png" else _scrub_text(value, scrub)
            for mime, value in output.data.items()
        }
    return output


def _scrub_text(value, scrub):
    """``value`` without machine paths when it is text (JSON outputs are left alone)."""
    return scrub(value) if isinstance(value, str) else value


def _last_state(text):
    """A stream as a terminal shows it: of each line, what its last carriage return left."""
    return "\n".join(_after_returns(line) for line in text.split("\n"))


def _after_returns(line):
    """The last non-empty segment of ``line`` between carriage returns."""
    segments = [segment for segment in line.split("\r") if segment]
    return segments[-1] if segments else ""


def _screen_png(data):
    """A base64 PNG scaled down (aspect kept) to fit :data:`MAX_IMAGE_WIDTH` and
    :data:`MAX_IMAGE_BYTES` (opaque, in a 256-colour palette); returned unchanged when it
    fits."""
    from PIL import Image

    raw = base64.b64decode(data)
    image = Image.open(io.BytesIO(raw))
    scale = min(1.0, MAX_IMAGE_WIDTH / image.width, math.sqrt(MAX_IMAGE_BYTES / len(raw)))
    if scale == 1.0:
        return data
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    buffer = io.BytesIO()
    # a 256-colour palette: resampling a plot makes thousands of colours a palette holds
    smaller = image.convert("RGB").resize(size, Image.Resampling.LANCZOS).quantize(256)
    smaller.save(buffer, "PNG", optimize=True)
    return base64.b64encode(buffer.getvalue()).decode("ascii")

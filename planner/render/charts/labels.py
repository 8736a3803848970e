"""Labels on a plot that cover neither a plotted line nor each other.

A label marks a place on the x axis (a break-even month, a usage level). Its leader is a
vertical line from the axis up to the label's top (and at least up to the point it marks),
and the label sits beside it, on its right or its left. :func:`place_marks` places the labels
together. The places a label may take are tried from the preferred end of the axes (the top,
or the bottom) in steps of half a label, at each height the preferred side first and then
the other; then the same on one line, when the label has several. A place is clear when the label's box stays inside the axes and covers no plotted
line (its width and markers included), no text already there and no other label, and no
leader crosses a label. :func:`place_marks` takes the first clear places for all labels
together, in the order of the marks and of their places (a depth-first search, bounded by
SEARCH_LIMIT steps), so labels of marks close together stack like stairs, each leader ending
at its own label. When the search finds none, the money axis is raised (HEADROOM) for a free
band above the lines and the search runs again; if it still finds none, each label in turn
takes the place that covers least (fewest labels, then fewest line segments), the first on a tie. Everything is measured
with matplotlib's renderer in display coordinates, after the axes are placed, so the same
chart always gets the same places.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.render.charts.style import INK, LABEL_BOX, MARK

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.text import Annotation, Text

LABEL_PT = 7.5  # the labels' font size [pt]
OFFSET_PT = 4.0  # from the marked line to the label's text [pt]
CLEARANCE_PT = 1.0  # kept free around a label's box, beyond a line's half width [pt]
EDGE_FRACTION = 0.03  # the first height tried, from the axes' edge [fraction of its height]
SEARCH_LIMIT = 20000  # places tried by the search for clear places before it gives up
#: How far the money axis is raised, in turn, when the labels find no clear places
#: [fraction of its span]: a band above the lines where labels fit.
HEADROOM = (0.0, 0.15, 0.3, 0.5, 0.8)


@dataclass(frozen=True)
class Mark:
    """A label to place beside the vertical line at ``x`` (data coordinates)."""

    text: str
    x: float
    right: bool = True  # the preferred side
    from_top: bool = True  # the preferred end to search from
    reach: float | None = None  # the leader reaches at least this y (data coordinates)
    line: tuple[tuple[str, Any], ...] = (("color", MARK), ("linewidth", 0.8),
                                         ("linestyle", (0, (2, 2))))  # the leader, dotted


def renderer_of(fig: Any) -> RendererBase:
    """A renderer that measures ``fig``'s text as it will be drawn (Agg, without pyplot)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from planner.render.charts.metrics import remember_measurements

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    return remember_measurements(canvas.get_renderer(), fig)


def label_box(text: Text, renderer: RendererBase) -> np.ndarray:
    """``[x0, y0, x1, y1]`` of ``text`` with its background box [display units]."""
    extent = text.get_window_extent(renderer)
    patch = text.get_bbox_patch()
    if patch is not None:
        text.update_bbox_position_size(renderer)
        extent = patch.get_window_extent(renderer)
    return np.array([extent.x0, extent.y0, extent.x1, extent.y1])


def segments_crossing(box: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Which segments ``starts[i]``–``ends[i]`` (n × 2, display units) pass through ``box``
    (Liang–Barsky clipping, all segments at once). ``box`` is one ``[x0, y0, x1, y1]`` or a
    stack of k of them, and the answer n or k × n booleans."""
    boxes = np.asarray(box, dtype=float)
    one = boxes.ndim == 1
    boxes = boxes.reshape(-1, 4)[:, :, np.newaxis]  # k × 4 × 1, against n segments
    if len(starts) == 0:
        return np.zeros(0 if one else (len(boxes), 0), dtype=bool)
    d = ends - starts
    low = np.zeros((len(boxes), len(starts)))
    high = np.ones((len(boxes), len(starts)))
    inside = np.ones((len(boxes), len(starts)), dtype=bool)
    for axis, (lo, hi) in enumerate(((boxes[:, 0], boxes[:, 2]), (boxes[:, 1], boxes[:, 3]))):
        for p, q in ((-d[:, axis], starts[:, axis] - lo), (d[:, axis], hi - starts[:, axis])):
            parallel = np.broadcast_to(p == 0, q.shape)
            inside &= ~(parallel & (q < 0))
            with np.errstate(divide="ignore", invalid="ignore"):
                r = np.where(parallel, 0.0, q / np.where(parallel, 1.0, p))
            low = np.where(~parallel & (p < 0), np.maximum(low, r), low)
            high = np.where(~parallel & (p > 0), np.minimum(high, r), high)
    crossing = inside & (low <= high)
    return crossing[0] if one else crossing


def boxes_overlapping(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Which of ``others`` (m × 4) each of ``boxes`` (k × 4) shares more than an edge with:
    k × m booleans (``[x0, y0, x1, y1]`` boxes)."""
    a, b = boxes[:, np.newaxis, :], others[np.newaxis, :, :]
    return (a[..., 0] < b[..., 2]) & (b[..., 0] < a[..., 2]) & (a[..., 1] < b[..., 3]) \
        & (b[..., 1] < a[..., 3])


@dataclass
class _Lines:
    """Every plotted line of an axes as segments in display units, each with the clearance
    it needs (half its width and marker, and CLEARANCE_PT) [pt]."""

    starts: np.ndarray
    ends: np.ndarray
    clearance: np.ndarray

    def hits(self, boxes: np.ndarray, pixels_per_pt: float) -> np.ndarray:
        """How many segments each of ``boxes`` (k × 4) covers, each box grown by a segment's
        clearance."""
        count = np.zeros(len(boxes), dtype=int)
        for margin in np.unique(self.clearance):
            chosen = self.clearance == margin
            grown = boxes + np.array([-1, -1, 1, 1]) * margin * pixels_per_pt
            crossing = segments_crossing(grown, self.starts[chosen], self.ends[chosen])
            count += crossing.sum(axis=1)
        return count


def plotted_lines(ax: Axes) -> _Lines:
    """The segments of ``ax``'s lines (a lone point is a segment of length zero)."""
    starts, ends, clearance = [], [], []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
        xy = xy[np.isfinite(xy).all(axis=1)]
        if len(xy) == 0:
            continue
        pairs = (xy[:-1], xy[1:]) if len(xy) > 1 else (xy, xy)
        half = line.get_linewidth() / 2 if line.get_linestyle() not in ("None", "") else 0.0
        if line.get_marker() not in (None, "None", "", " "):
            half = max(half, line.get_markersize() / 2 + line.get_markeredgewidth() / 2)
        starts.append(pairs[0])
        ends.append(pairs[1])
        clearance.append(np.full(len(pairs[0]), half + CLEARANCE_PT))
    if not starts:
        return _Lines(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0))
    return _Lines(np.concatenate(starts), np.concatenate(ends), np.concatenate(clearance))


@dataclass
class _Place:
    """One place a label may take: its box and its leader's top [display units]."""

    box: np.ndarray
    right: bool
    text: str
    anchor: float  # the leader's x
    leader_top: float
    static_cover: tuple[int, int]  # (texts and known leaders covered, line segments covered)
    edges: tuple[float, ...] = field(init=False)  # the box as plain floats, for speed

    def __post_init__(self) -> None:
        self.edges = tuple(float(v) for v in self.box)


def place_marks(ax: Axes, marks: list[Mark],
                relayout: Callable[[], None] | None = None) -> list[Annotation]:
    """Draw the leaders and labels of ``marks`` on ``ax``, each where it covers nothing (see
    the module's docstring); the texts already on ``ax`` are kept clear of too. Call it once
    the axes are placed and their limits set.

    When there are no clear places and ``relayout`` is given (it places the axes anew, since
    their tick labels change), the money axis is raised by each of HEADROOM in turn, for a
    free band above the lines, until there are; the last is kept either way.
    """
    if not marks:
        return []
    bottom, top = ax.get_ylim()
    for raise_by in HEADROOM if relayout is not None else (0.0,):
        if raise_by:
            ax.set_ylim(bottom, top + raise_by * (top - bottom))
            relayout()
        notes, chosen, clear = _plan(ax, marks)
        if clear or raise_by == HEADROOM[-1] or relayout is None:
            break
        for note in notes:
            note.remove()
    to_axes = ax.transAxes.inverted()
    for mark, note, place in zip(marks, notes, chosen):
        if place:
            note.set_text(place.text)
        renderer = renderer_of(ax.figure)
        pad = note.get_window_extent(renderer).x0 - label_box(note, renderer)[0]
        frame = ax.get_window_extent(renderer)
        right, top_y = (place.right, place.box[3]) if place else (True, frame.y1)
        note.set_ha("left" if right else "right")
        note.xyann = ((1 if right else -1) * OFFSET_PT, 0)
        note.xy = (mark.x, to_axes.transform((0, top_y - pad))[1])
        leader_top = place.leader_top if place else frame.y1
        ax.plot([mark.x, mark.x], [0.0, to_axes.transform((0, leader_top))[1]],
                transform=ax.get_xaxis_transform(), zorder=1, **dict(mark.line))
    return notes


def _plan(ax: Axes, marks: list[Mark]) -> tuple[list[Annotation], list[_Place | None], bool]:
    """The labels (drawn, not yet placed), the place of each, and whether all are clear."""
    renderer = renderer_of(ax.figure)
    pixels_per_pt = ax.figure.dpi / 72
    lines = plotted_lines(ax)
    frame = ax.get_window_extent(renderer)
    texts = [label_box(text, renderer) for text in ax.texts]
    notes = [ax.annotate(mark.text, xy=(mark.x, 1.0), xycoords=("data", "axes fraction"),
                         xytext=(OFFSET_PT, 0), textcoords="offset points", ha="left",
                         va="top", fontsize=LABEL_PT, color=INK, bbox=LABEL_BOX)
             for mark in marks]
    anchors = [float(ax.transData.transform((mark.x, 0))[0]) for mark in marks]
    reaches = [frame.y0 if mark.reach is None else
               float(np.clip(ax.transData.transform((mark.x, mark.reach))[1],
                             frame.y0, frame.y1)) for mark in marks]
    known = [(np.array([[x, frame.y0]]), np.array([[x, top]]))
             for x, top in zip(anchors, reaches)]
    places = []
    for k, (mark, note) in enumerate(zip(marks, notes)):
        options = []
        for text in _forms(mark.text):
            note.set_text(text)
            box = label_box(note, renderer)
            pad = note.get_window_extent(renderer).x0 - box[0]  # the box's pad on every side
            tried = [(candidate, right) for candidate, right in _candidates(
                frame, anchors[k], box[2] - box[0], box[3] - box[1], pad, mark, pixels_per_pt)
                if frame.x0 <= candidate[0] and candidate[2] <= frame.x1]
            if not tried:
                continue
            boxes = np.array([candidate for candidate, _ in tried])
            tops = np.maximum(boxes[:, 3], reaches[k])
            leaders = np.column_stack([np.full(len(tops), anchors[k]), tops])
            bottoms = np.broadcast_to(known[k][0], leaders.shape)
            cover = np.zeros(len(tried), dtype=int)
            if texts:
                others = np.array(texts)
                crossed = segments_crossing(others, bottoms, leaders).T  # candidates × texts
                cover += (boxes_overlapping(boxes, others) | crossed).sum(axis=1)
            others = [j for j in range(len(marks)) if j != k]
            if others:  # the other marks' leaders, all at once: candidates × leaders
                cover += segments_crossing(
                    boxes, np.concatenate([known[j][0] for j in others]),
                    np.concatenate([known[j][1] for j in others])).sum(axis=1)
            hits = lines.hits(boxes, pixels_per_pt)
            options += [_Place(candidate, right, text, anchors[k], float(top),
                               (int(covered), int(hit)))
                        for (candidate, right), top, covered, hit
                        in zip(tried, tops, cover, hits)]
        note.set_text(mark.text)
        places.append(options)
    clear = _clear_places(places, pixels_per_pt)
    if clear is not None:
        return notes, list(clear), True
    return notes, _least_covering(places, pixels_per_pt), False


def _apart(a: _Place, b: _Place, pixels_per_pt: float) -> bool:
    """Whether two placed labels keep CLEARANCE_PT from each other and from each other's
    leaders (a leader is vertical, from the axes' foot up to its top)."""
    margin = CLEARANCE_PT * pixels_per_pt
    ax0, ay0, ax1, ay1 = a.edges
    bx0, by0, bx1, by1 = b.edges
    if ax0 < bx1 + margin and bx0 < ax1 + margin and ay0 < by1 + margin and by0 < ay1 + margin:
        return False
    return not (ax0 - margin < b.anchor < ax1 + margin and ay0 - margin < b.leader_top) \
        and not (bx0 - margin < a.anchor < bx1 + margin and by0 - margin < a.leader_top)


def _clear_places(places: list[list[_Place]], pixels_per_pt: float) -> list[_Place] | None:
    """The first clear place of every label, in the order of the marks and of their places
    (depth first, each choice striking the places it leaves unclear for the labels after
    it), or None when there is none within SEARCH_LIMIT steps."""
    steps = 0

    def search(options: list[list[_Place]]) -> list[_Place] | None:
        nonlocal steps
        if not options:
            return []
        for place in options[0]:
            steps += 1
            if steps > SEARCH_LIMIT:
                return None
            rest = [[p for p in ps if _apart(place, p, pixels_per_pt)] for ps in options[1:]]
            if all(rest):
                found = search(rest)
                if found is not None:
                    return [place, *found]
        return None

    return search([[p for p in ps if p.static_cover == (0, 0)] for ps in places])


def _least_covering(places: list[list[_Place]], pixels_per_pt: float) -> list[_Place | None]:
    """Each label in turn at the place that covers least, given those placed before it."""
    chosen: list[_Place | None] = []
    for options in places:
        best, best_cover = None, None
        for place in options:
            clashes = sum(not _apart(place, other, pixels_per_pt)
                          for other in chosen if other is not None)
            cover = (place.static_cover[0] + clashes, place.static_cover[1])
            if best_cover is None or cover < best_cover:
                best, best_cover = place, cover
        chosen.append(best)
    return chosen


def _forms(text: str) -> list[str]:
    """The label as written, then (when it has several lines) on one line: wider but lower,
    for a crowded corner."""
    flat = " ".join(text.split("\n"))
    return [text] if flat == text else [text, flat]


def _candidates(frame: Any, anchor_x: float, width: float, height: float, pad: float,
                mark: Mark, pixels_per_pt: float):
    """(box, on the right?) of every place tried, in order [display units]."""
    offset = OFFSET_PT * pixels_per_pt
    step = height / 2
    edge = frame.height * EDGE_FRACTION
    count = max(1, int((frame.height - 2 * edge - height) // step) + 1)
    for k in range(count):
        box_top = frame.y1 - edge - k * step if mark.from_top else \
            frame.y0 + edge + height + k * step
        for right in (mark.right, not mark.right):
            x0 = anchor_x + offset - pad if right else anchor_x - offset + pad - width
            yield np.array([x0, box_top - height, x0 + width, box_top]), right

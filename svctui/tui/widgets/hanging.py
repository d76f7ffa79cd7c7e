"""Text whose wrapped lines hang under their value: a `label  value` line too long for its pane continues under the
value, not at column 0.

    body.update(Hanging([(field_line, 14), ("plain line", 0)]))   # each line with the column it hangs at

`Hanging` is a `Content` (so a Static's text selection and `str()` see the lines as written) that wraps itself to
the width it is drawn at: it fits any pane and wraps again after a resize. Where a hang would leave fewer than
`MIN_ROOM` cells for the value, the line wraps from column 0 as plain Content does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.segment import Segment
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions

from svctui.tui.shown import shown_content, shown_str

MIN_ROOM = 12  # cells the value keeps beside its hang; in a narrower pane the line wraps from column 0


def cut_offsets(text: str, width: int) -> list[int]:
    """Where to cut `text` so that each piece fits `width` cells: after the last space that fits, else (a word wider
    than the width) at the width."""
    cuts: list[int] = []
    start, end = 0, len(text)
    width = max(1, width)
    while cell_len(text[start:]) > width:
        stop, cells = start, 0
        while stop < end and cells + cell_len(text[stop]) <= width:
            cells += cell_len(text[stop])
            stop += 1
        space = text.rfind(" ", start, stop + 1)  # a space just past the fit may go: the piece is stripped
        cut = space + 1 if space > start else stop
        cut = max(cut, start + 1)  # always progress (one character wider than the width)
        if cut >= end:
            break
        cuts.append(cut)
        start = cut
    return cuts


class Hanging(Content):
    """Lines, each with the column its wrapped continuations start at (its hang)."""

    def __init__(self, lines: Iterable[tuple[Content | str, int]]) -> None:
        """`lines`: (line, hang) pairs; a line holding newlines is several lines, the later ones indented by the
        hang too."""
        physical: list[Content] = []
        hangs: list[int] = []
        for line, hang in lines:
            content = shown_content(line) if isinstance(line, Content) else shown_str(line, lines=True)  # outside text
            for index, part in enumerate(content.split("\n", allow_blank=True)):
                physical.append(Content(" " * hang) + part if index and hang else part)
                hangs.append(max(0, hang))
        if not physical:
            physical, hangs = [Content("")], [0]
        joined = Content("\n").join(physical)
        super().__init__(joined.plain, list(joined.spans))
        self._hangs = hangs
        self._cuts: tuple[int, list[tuple[int, list[int]]]] | None = None

    @property
    def hangs(self) -> Sequence[int]:
        """Each line's hang (the column its continuations start at)."""
        return self._hangs

    def _layout(self, width: int) -> list[tuple[int, list[int]]]:
        """Per line: the hang used (0 when there is no room for one) and the offsets where it is cut."""
        if self._cuts is not None and self._cuts[0] == width:
            return self._cuts[1]
        layout: list[tuple[int, list[int]]] = []
        for line, hang in zip(self.plain.split("\n"), self._hangs, strict=True):
            if cell_len(line) <= width:
                layout.append((0, []))
            elif hang and width - hang >= MIN_ROOM and cell_len(line[:hang]) == hang:
                layout.append((hang, [hang + cut for cut in cut_offsets(line[hang:], width - hang)]))
            else:
                layout.append((0, cut_offsets(line, width)))
        self._cuts = (width, layout)
        return layout

    def get_height(self, rules: RulesMap, width: int) -> int:
        """Lines at `width`, continuations included."""
        return sum(len(cuts) + 1 for _, cuts in self._layout(width))

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        """The lines wrapped to `width`, continuations indented by their hang; each character keeps its place in the
        text as written (so a selection copies the lines unwrapped)."""
        if not width:
            return []
        blank = style.background_style.rich_style
        strips: list[Strip] = []
        lines = self.split("\n", allow_blank=True)
        for y, (line, (hang, cuts)) in enumerate(zip(lines, self._layout(width), strict=True)):
            if options.post_style is not None:
                line = line.stylize(options.post_style)
            span = options.selection.get_span(y) if options.selection is not None else None
            if span is not None and options.selection_style is not None:
                start, end = span
                line = line.stylize(options.selection_style, start, len(line.plain) if end == -1 else end)
            pieces = line.divide(cuts) if cuts else [line]
            for index, (piece, x) in enumerate(zip(pieces, [0, *cuts], strict=True)):
                if index < len(pieces) - 1:
                    piece = piece.rstrip()
                segments = [Segment(" " * hang, blank)] if index and hang else []
                for text, text_style in piece.render(style, end="", parse_style=options.get_style):
                    segments.append(Segment(text, (style + text_style).rich_style_with_offset(x, y)))
                    x += len(text)
                strips.append(Strip(segments))
        return strips if height is None else strips[:height]

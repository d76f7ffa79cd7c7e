"""The shipped themes: all found and valid, each covering the app variables at readable contrast, and statuses
told apart by more than hue (a glyph per status in the status bar, words in cells) in every theme."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.color import Color
from textual.theme import BUILTIN_THEMES, Theme
from textual.widget import Widget

from svctui.api.models import TaskStatus
from svctui.triage import StatusCount, detect_drops
from svctui.tui.theme import APP_VARIABLE_DEFAULTS, DEFAULT_THEME, SHIPPED_THEMES, load_themes, shipped_themes_dir
from svctui.tui.widgets.domain_results import DomainResultsPane
from svctui.tui.widgets.status_bar import StatusBar
from svctui.tui.widgets.status_colors import STATUS_GLYPHS, UNKNOWN_GLYPH, status_color, status_glyph
from tests.triage_samples import sample_tasks

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[2]
OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000", "#BBBBBB"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def shipped() -> dict[str, Theme]:
    loaded = load_themes([shipped_themes_dir()])
    assert loaded.problems == ()
    return {theme.name: theme for theme in loaded.themes}


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance."""
    red, green, blue = (channel / 255 for channel in Color.parse(colour).rgb)

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(one: str, other: str) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_ratio_matches_wcag() -> None:
    assert contrast("#FFFFFF", "#000000") == pytest.approx(21)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)


def test_the_four_shipped_themes_load_from_the_package_and_the_repository_root() -> None:
    assert set(shipped()) == set(SHIPPED_THEMES)
    assert len(SHIPPED_THEMES) >= 4
    assert shipped_themes_dir() == REPO / "svctui" / "themes"
    assert sorted(path.name for path in (REPO / "themes").glob("*.toml")) == sorted(
        f"{name}.toml" for name in SHIPPED_THEMES
    ), "`ls themes` at the repository root shows the shipped themes"
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"themes/*.toml"' in pyproject, "the themes are package data, so `pipx install .` carries them"


@pytest.mark.parametrize("name", SHIPPED_THEMES)
def test_each_shipped_theme_sets_every_app_variable(name: str) -> None:
    theme = shipped()[name]
    assert set(theme.variables) >= set(APP_VARIABLE_DEFAULTS), sorted(set(APP_VARIABLE_DEFAULTS) - set(theme.variables))


@pytest.mark.parametrize("name", SHIPPED_THEMES)
def test_text_and_status_colours_are_readable_on_the_background_and_the_tables(name: str) -> None:
    theme = shipped()[name]
    least = 7.0 if name == "svctui-contrast" else 4.5  # WCAG AAA for the high-contrast theme, AA for the others
    assert theme.background is not None and theme.surface is not None and theme.foreground is not None
    for ground in (theme.background, theme.surface):  # tables are drawn on $surface
        assert contrast(theme.foreground, ground) >= least
        for variable, colour in theme.variables.items():
            assert contrast(colour, ground) >= least, f"{name}: {variable} {colour} on {ground}"


def test_the_high_contrast_theme_is_white_on_black() -> None:
    theme = shipped()["svctui-contrast"]
    assert (theme.foreground, theme.background) == ("#FFFFFF", "#000000")


def test_the_colour_blind_safe_theme_uses_only_the_okabe_ito_palette() -> None:
    theme = shipped()["svctui-cvd"]
    colours = {theme.primary, theme.secondary, theme.accent, theme.warning, theme.error, theme.success}
    colours |= {value.upper() for value in theme.variables.values()}
    assert colours <= OKABE_ITO, colours - OKABE_ITO
    failed, complete = theme.variables["status-failed"], theme.variables["status-complete"]
    assert abs(luminance(failed) - luminance(complete)) > 0.01  # not only hue: lightness differs as well


def test_the_default_theme_draws_drops_as_before() -> None:
    assert DEFAULT_THEME == "textual-dark"
    assert APP_VARIABLE_DEFAULTS["drop"].upper() == Color.parse(BUILTIN_THEMES[DEFAULT_THEME].error or "").hex


def test_every_status_has_its_own_glyph_and_its_own_word() -> None:
    glyphs = [status_glyph(status) for status in TaskStatus]
    assert set(STATUS_GLYPHS) == set(TaskStatus)
    assert len(set(glyphs)) == len(glyphs) and UNKNOWN_GLYPH not in glyphs
    assert status_glyph(99) == UNKNOWN_GLYPH
    labels = [status.label for status in TaskStatus]
    assert len(set(labels)) == len(labels)


class Themed(App[object]):
    """One widget, with the shipped themes registered."""

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(APP_VARIABLE_DEFAULTS)

    def compose(self) -> ComposeResult:
        yield self.widget

    def on_mount(self) -> None:
        for theme in shipped().values():
            self.register_theme(theme)


async def test_status_bar_parts_differ_in_glyph_in_every_theme() -> None:
    bar = StatusBar()
    counts = [StatusCount(status.value, status.label, 1) for status in TaskStatus]
    async with Themed(bar).run_test(size=(200, 3)) as pilot:
        bar.set_breakdown(counts)
        for theme in (DEFAULT_THEME, *SHIPPED_THEMES):
            pilot.app.theme = theme
            await pilot.pause()
            line = bar.render()
            assert isinstance(line, Text)
            plain = line.plain
            for status in TaskStatus:
                glyph = status_glyph(status)
                assert f"{glyph} {status.label} 1" in plain, (theme, status)  # the legend names the glyph
                drawn = {
                    plain[span.start : span.end]
                    for span in line.spans
                    if str(span.style).endswith(status_color(pilot.app, status).lower())
                }
                assert any(set(part) == {glyph} for part in drawn), (theme, status, drawn)  # its part of the bar


async def test_drops_take_the_theme_drop_colour() -> None:
    tasks = sample_tasks()
    drops = detect_drops(tasks)
    dropped = next(task for task in tasks if task.id == drops[0].task_id)
    pane = DomainResultsPane()
    async with Themed(pane).run_test(size=(160, 20)) as pilot:
        pilot.app.register_theme(Theme("drop-test", primary="#336699", error="#FF0000", variables={"drop": "#00FF00"}))
        pilot.app.theme = "drop-test"
        await pilot.pause()
        pane.show_task(dropped, drops)
        await pilot.pause()
        cell = pane.table.get_cell(f"domain:{drops[0].domain_name}", drops[0].field)
        assert isinstance(cell, Text) and cell.plain.startswith("▼")
        assert str(cell.style).startswith("bold") and "#00ff00" in str(cell.style)

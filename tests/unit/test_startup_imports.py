"""What start-up leaves out: each check runs a fresh interpreter and reads its sys.modules (no timing)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.process_state import run_probe


def _probe(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    return result.stdout.strip().splitlines()[-1]


def test_the_program_does_not_import_httpxs_command_line_client() -> None:
    """httpx's CLI (pygments, rich.progress, rich.syntax) is never run by svctui, so the program (cli.main's start-up
    settings, then the client) never imports it."""
    code = (
        "import sys\nfrom svctui.startup import skip_unused_imports\nskip_unused_imports()\n"
        "import svctui.api.client, httpx\n"
        "print(sorted(m for m in sys.modules if m == 'httpx._main' and sys.modules[m] is not None "
        "or m.startswith(('pygments', 'rich.progress', 'rich.syntax'))))"
    )
    assert _probe(code) == "[]"
    works = (
        "import svctui.startup as s\ns.skip_unused_imports()\nimport svctui.api, httpx\n"
        "print(httpx.URL('http://127.0.0.1:1/api/v2/events').path, callable(httpx.main))"
    )
    assert _probe(works) == "/api/v2/events True"


def test_the_api_models_are_built_on_first_use() -> None:
    """Importing the models builds no validator; the first page of a kind builds the ones it needs, and only them."""
    code = (
        "from svctui.api.models import Event, Page, Selector, CompletedTask, parse_json\n"
        "before = [m.__pydantic_complete__ for m in (Event, Selector, CompletedTask)]\n"
        'page = parse_json(Page[Event], b\'{"count": 0, "data": []}\')\n'
        "print(before, page.count, Selector.__pydantic_complete__, CompletedTask.__pydantic_complete__)"
    )
    assert _probe(code) == "[False, False, False] 0 False False"


def _plugins_setting_after_a_command(before: str | None) -> str:
    set_it = (
        "os.environ.pop('PYDANTIC_DISABLE_PLUGINS', None)"
        if before is None
        else (f"os.environ['PYDANTIC_DISABLE_PLUGINS'] = {before!r}")
    )
    code = (
        f"import os, sys\n{set_it}\nfrom svctui.cli import main\n"
        "sys.argv = ['svctui', 'locate', 'config']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(repr(os.environ.get('PYDANTIC_DISABLE_PLUGINS')))"
    )
    return _probe(code)


def test_the_command_line_turns_off_pydantics_plugin_scan_unless_the_user_set_it() -> None:
    """Without a value of the user's, svctui tells pydantic not to scan every installed distribution for plugins."""
    assert _plugins_setting_after_a_command(None) == "'__all__'"
    assert _plugins_setting_after_a_command("logfire") == "'logfire'"


def test_svctui_api_imported_as_a_library_changes_no_process_wide_state() -> None:
    """A program that imports svctui.api (docs/CLIENT.md) keeps its collector, sys.modules, signal and logging
    handlers, switch interval and environment (tests/support/process_state.py lists what is compared)."""
    code = "before = state()\nimport svctui.api, svctui.api.client, svctui.api.models, httpx\n"
    assert run_probe(code + "print(changed(before, state()))") == "{}"


def test_the_state_probe_sees_each_kind_of_change() -> None:
    """The probe above can fail: each process-wide change the program itself makes at launch, or a library could,
    shows up in it."""
    code = (
        "before = state()\nimport logging, signal, sys\nimport svctui.startup as s\n"
        "s.skip_unused_imports(); s.tune_runtime(s.BATCH); s.quiet_pydantic_plugins()\n"
        "logging.getLogger('svctui').addHandler(logging.StreamHandler())\n"
        "signal.signal(signal.SIGUSR1, signal.SIG_IGN); sys.setswitchinterval(0.001)\n"
        "print(sorted(changed(before, state())))"
    )
    assert run_probe(code) == str(["environment", "gc", "logging", "modules", "signals", "switch interval"])


def _runtime_after(*args: str) -> str:
    """The collector's thresholds and whether a heap is frozen as `svctui ARGS` (main, the program) runs its command;
    the dashboard's run replaced by that report (the app is not what is tested: its launch is)."""
    code = (
        "import gc, sys\nimport svctui.tui.launch\n"
        "def report(**_options):\n    print(gc.get_threshold(), gc.get_freeze_count() > 0)\n    return 0\n"
        "svctui.tui.launch.run_dashboard = report\nfrom svctui.cli import main\n"
        f"sys.argv = ['svctui', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(gc.get_threshold(), gc.get_freeze_count() > 0)"
    )
    return _probe(code)


def test_the_program_tunes_the_runtime_once_as_it_launches() -> None:
    """`svctui health` (a batch command) and the dashboard set their collector TUNINGS as the program starts (and
    nothing changes them after), another command keeps CPython's defaults, and so does `cli` invoked by a caller (a
    test's CliRunner)."""
    from svctui.startup import BATCH, DASHBOARD, TUNINGS

    batch, dashboard = TUNINGS[BATCH], TUNINGS[DASHBOARD]
    assert _runtime_after() == f"{dashboard.thresholds} {dashboard.freeze}", "the dashboard's launch"
    assert _runtime_after("health", "--help") == f"{batch.thresholds} {batch.freeze}"
    assert _runtime_after("locate", "config") == f"{(700, 10, 10)} False"
    by_a_caller = (
        "import gc\nfrom click.testing import CliRunner\nfrom svctui.cli import cli\n"
        "CliRunner().invoke(cli, ['health', '--help'])\nprint(gc.get_threshold(), gc.get_freeze_count() > 0)"
    )
    assert _probe(by_a_caller) == f"{(700, 10, 10)} False"


def test_the_dashboard_limits_malloc_arenas_unless_the_environment_does() -> None:
    """In a fresh process (mallopt is process-wide): set on glibc; MALLOC_ARENA_MAX in the environment wins."""
    probe = "from svctui.startup import limit_malloc_arenas as f; print(f(1))"
    env = {key: value for key, value in os.environ.items() if key != "MALLOC_ARENA_MAX"}
    ran = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["True"]
    ran = subprocess.run(
        [sys.executable, "-c", probe], env={**env, "MALLOC_ARENA_MAX": "4"}, capture_output=True, text=True, check=True
    )
    assert ran.stdout.split() == ["False"]


def test_the_dashboard_module_leaves_the_plot_library_to_the_first_plot() -> None:
    """plotext (~15 ms of imports) draws only the Completed tasks screen's count plot: importing the
    dashboard (what precedes the first frame) does not import it, nor textual-plotext; the first plot does."""
    code = (
        "import sys\nimport svctui.tui.app\n"
        "before = sorted(m for m in sys.modules if m.split('.')[0] in ('plotext', 'textual_plotext'))\n"
        "import svctui.tui.widgets.count_plot\n"
        "print(before, 'plotext' in sys.modules)"
    )
    assert _probe(code) == "[] True"

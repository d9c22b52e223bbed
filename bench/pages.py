"""Sizes and opening times of the HTML pages: a 50-task replay, and a report of 2,000 matches.

    python bench/pages.py [--matches 2000] [--chromium /usr/bin/chromium]

Prints the replay's size (the budget is 1 MB) and, when Chromium and Playwright are at hand, how
long the report page takes from the request to the page drawn (the budget is 3 s), three times.
The report's matches are made up (results only); the replay is a real match between two baselines.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apdp.pages.replay import replay_html  # noqa: E402
from apdp.referee.match import play_match  # noqa: E402
from apdp.referee.record import RECORD_FORMAT  # noqa: E402
from apdp.scenario import make_scenario  # noqa: E402
from apdp.tournament.report import report  # noqa: E402
from apdp.tournament.report_page import report_html  # noqa: E402
from apdp.tournament.schedule import double_round_robin  # noqa: E402
from apdp.tournament.store import ResultsStore  # noqa: E402


def made_up_store(folder: Path, matches: int) -> None:
    """A results store of ``matches`` made-up matches between 16 agents on the four networks."""
    names = [f"agent-{k:02d}" for k in range(16)]
    repeat = matches // (16 * 15 * 4) + 1
    schedule = double_round_robin(names, ["france", "switzerland", "england", "netherlands"], 1, repeat)
    rng = random.Random(0)
    store = ResultsStore.create_or_resume(folder, {"made_up": True})
    try:
        for spec in schedule[:matches]:
            profit = [round(rng.gauss(0, 3000), 1) for _ in spec.agents]
            faults = [{"agent": 1, "kind": "timeout", "phase": "bid", "task": 3, "message": "made up"}] \
                if rng.random() < 0.03 else []
            winner = 0 if faults else int(profit[1] > profit[0])
            store.add(spec, {"format": RECORD_FORMAT, "result": {"profit": profit, "winner": winner, "faults": faults}})
    finally:
        store.close()


def open_ms(chromium: str, page: Path) -> list[int]:
    """Milliseconds from the request to the page drawn, in three fresh tabs."""
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for _ in range(3):
            context = browser.new_context()
            tab = context.new_page()
            tab.goto(page.as_uri())
            tab.wait_for_function("document.body.dataset.ready === '1'")
            out.append(int(tab.get_attribute("body", "data-open-ms") or -1))
            context.close()
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    args = parser.parse_args()

    record = play_match(make_scenario({"topology": "france", "seed": 11}), ["honest", "exp-cost-fixed-bid"]).to_json()
    size = len(replay_html(record).encode("utf-8"))
    recorded = len(json.dumps(record)) / 1024
    print(f"replay of {len(record['tasks'])} tasks: {size / 1024:.0f} KiB (the record: {recorded:.0f} KiB)")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        made_up_store(folder / "results", args.matches)
        started = time.perf_counter()
        data = json.loads(report([folder / "results"], "json"))
        page = folder / "report.html"
        page.write_text(report_html(data), encoding="utf-8")
        print(f"report of {args.matches} matches: {page.stat().st_size / 1024:.0f} KiB, "
              f"made in {time.perf_counter() - started:.1f} s")
        if args.chromium is None:
            print("no Chromium: opening time not measured")
            return
        try:
            times = open_ms(args.chromium, page)
        except ImportError:
            print("no playwright: opening time not measured (pip install -e '.[test]')")
            return
        print(f"report page opens in {', '.join(f'{t} ms' for t in times)}")


if __name__ == "__main__":
    main()

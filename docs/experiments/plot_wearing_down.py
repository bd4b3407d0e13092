"""The chart of docs/experiments/wearing-down.md: the champion's win rate against the
number of levies, from the JSON that ``fracas sim`` wrote for each encounter.

    cd docs/experiments && python plot_wearing_down.py
"""

import json
from pathlib import Path

from fracas.lab.plots import plot_line

HERE = Path(__file__).resolve().parent
counts, rates, lows, highs = [], [], [], []
for n in (1, 2, 3, 4):
    record = json.loads((HERE / f"wearing-down-{n}.json").read_text(encoding="utf-8"))
    got = record["summary"]["sides"]["champion"]
    counts.append(n)
    rates.append(got["win_rate"])
    lows.append(got["ci95"][0])
    highs.append(got["ci95"][1])
plot_line(
    counts,
    rates,
    lows,
    highs,
    HERE / "wearing-down.png",
    "levies against the champion",
    "champion's win rate",
    f"Hrafn the Champion against 1 to 4 levies ({record['runs']} runs each)",
)

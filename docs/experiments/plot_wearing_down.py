"""The chart of docs/experiments/wearing-down.md: the champion's win rate against the
number of levies, for each policy, from the JSON that ``fracas sim`` wrote for each
encounter (``wearing-down-N.json``: the default policy; ``-attack-nearest``: that one).

    cd docs/experiments && python plot_wearing_down.py
"""

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent
LEVIES = (1, 2, 3, 4)

fig, ax = plt.subplots(figsize=(7, 4))
for suffix, label, colour in (
    ("", "default policy", "#4a7ab5"),
    ("-attack-nearest", "attack-nearest", "#c0703a"),
):
    records = [
        json.loads((HERE / f"wearing-down-{n}{suffix}.json").read_text(encoding="utf-8"))
        for n in LEVIES
    ]
    got = [r["summary"]["sides"]["champion"] for r in records]
    ax.fill_between(
        LEVIES, [g["ci95"][0] for g in got], [g["ci95"][1] for g in got], alpha=0.2, color=colour
    )
    ax.plot(LEVIES, [g["win_rate"] for g in got], marker="o", color=colour, label=label)
ax.set_xticks(LEVIES)
ax.set_ylim(0, 1)
ax.set_xlabel("levies against the champion")
ax.set_ylabel("champion's win rate (95% interval shaded)")
ax.set_title(f"Hrafn the Champion against 1 to 4 levies ({records[0]['runs']} runs each)")
ax.grid(alpha=0.3)
ax.legend(loc="best")
fig.tight_layout()
fig.savefig(HERE / "wearing-down.png", dpi=100, metadata={"Software": None})

"""Plots a training log (log.jsonl) as a small self-contained SVG: no plotting library needed."""

from __future__ import annotations

import json
from pathlib import Path


def plot_losses(log_path: Path, svg_path: Path, width: int = 640, height: int = 320) -> None:
    logged = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
    # A resumed run logs the steps after its last checkpoint again: the latest entry of a step wins.
    rows = list({r["step"]: r for r in logged}.values())
    rows.sort(key=lambda r: r["step"])
    series = {
        "train": [(r["step"], r["loss"]) for r in rows if "loss" in r],
        "val": [(r["step"], r["val_loss"]) for r in rows if "val_loss" in r],
    }
    points = [p for s in series.values() for p in s]
    if not points:
        svg_path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"/>')
        return
    pad = 40
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    x1 = x1 if x1 > x0 else x0 + 1
    y1 = y1 if y1 > y0 else y0 + 1

    def sx(x: float) -> float:
        return pad + (x - x0) / (x1 - x0) * (width - 2 * pad)

    def sy(y: float) -> float:
        return height - pad - (y - y0) / (y1 - y0) * (height - 2 * pad)

    colors = {"train": "#2563eb", "val": "#dc2626"}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#999"/>',
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#999"/>',
        f'<text x="{pad}" y="{pad - 8}">loss {y1:.3f}</text>',
        f'<text x="{pad}" y="{height - pad + 14}">{y0:.3f} · step {x0}</text>',
        f'<text x="{width - pad}" y="{height - pad + 14}" text-anchor="end">step {x1}</text>',
    ]
    for i, (name, pts) in enumerate(series.items()):
        if pts:
            path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
            parts.append(f'<polyline fill="none" stroke="{colors[name]}" stroke-width="1.5" points="{path}"/>')
            parts.append(f'<text x="{width - pad}" y="{pad + 14 * i}" text-anchor="end" fill="{colors[name]}">{name}</text>')
    parts.append("</svg>")
    svg_path.write_text("\n".join(parts))

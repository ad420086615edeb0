"""The trend charts, drawn on the server as SVG: questions per day (bars, refused ones darker)
and the refusal rate per day (a line). Nothing is loaded from anywhere; the page works without
JavaScript."""
from __future__ import annotations

from html import escape

from server.insights.report import Day

WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 720, 180, 40, 22, 10


def _frame(title: str, body: list[str], y_labels: list[tuple[float, str]], days: list[Day]) -> str:
    plot_h = HEIGHT - BOTTOM - TOP
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="{escape(title)}"><title>{escape(title)}</title>']
    for fraction, label in y_labels:
        y = TOP + plot_h * (1 - fraction)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>')
    parts += body
    if days:
        for i in sorted({0, len(days) // 2, len(days) - 1}):
            parts.append(f'<text x="{_x(i, len(days)) + _bar(len(days)) / 2:.1f}" y="{HEIGHT - 6}" '
                         f'text-anchor="middle">{days[i].day:%b %d}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _bar(n: int) -> float:
    return (WIDTH - LEFT) / max(n, 1)


def _x(i: int, n: int) -> float:
    return LEFT + i * _bar(n)


def questions_chart(days: list[Day]) -> str:
    top = max((d.questions for d in days), default=0) or 1
    plot_h, width = HEIGHT - BOTTOM - TOP, _bar(len(days))
    body = []
    for i, d in enumerate(days):
        if not d.questions:
            continue
        h, hr = plot_h * d.questions / top, plot_h * d.refused / top
        x = _x(i, len(days)) + width * 0.1
        label = f"{d.day:%Y-%m-%d}: {d.questions} questions, {d.refused} refused"
        body.append(f'<g><title>{label}</title><rect class="asked" x="{x:.1f}" y="{TOP + plot_h - h:.1f}" '
                    f'width="{width * 0.8:.1f}" height="{h:.1f}"/>'
                    + (f'<rect class="refused" x="{x:.1f}" y="{TOP + plot_h - hr:.1f}" width="{width * 0.8:.1f}" '
                       f'height="{hr:.1f}"/>' if d.refused else "") + "</g>")
    return _frame("Questions per day (refused darker)", body, [(0, "0"), (0.5, f"{top / 2:g}"), (1, f"{top}")], days)


def refusal_chart(days: list[Day]) -> str:
    plot_h, width = HEIGHT - BOTTOM - TOP, _bar(len(days))
    points, dots = [], []
    for i, d in enumerate(days):
        if not d.questions:
            continue
        rate = d.refused / d.questions
        x, y = _x(i, len(days)) + width / 2, TOP + plot_h * (1 - rate)
        points.append(f"{x:.1f},{y:.1f}")
        dots.append(f'<circle class="rate" cx="{x:.1f}" cy="{y:.1f}" r="3"><title>{d.day:%Y-%m-%d}: '
                    f'{rate:.0%} refused</title></circle>')
    line = [f'<polyline class="rate" fill="none" points="{" ".join(points)}"/>'] if len(points) > 1 else []
    return _frame("Refusal rate per day", line + dots, [(0, "0%"), (0.5, "50%"), (1, "100%")], days)

"""axe-core (the npm devDependency, node_modules/axe-core) run on a page in Playwright: the serious
and critical WCAG 2.2 A and AA violations in what the widget shows."""
from __future__ import annotations

from functools import cache

from playwright.sync_api import Page

from places import REPO

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
WIDGET = ("#textbook-chat",)  # the host; axe goes into its open shadow root


@cache
def _axe_source() -> str:
    path = REPO / "node_modules" / "axe-core" / "axe.min.js"
    assert path.is_file(), "axe-core is missing: run npm ci (it is a devDependency)"
    return path.read_text(encoding="utf-8")


def audit(page: Page, include: tuple[str, ...] = WIDGET) -> list[str]:
    """'rule (impact): element: what is wrong' for each serious or critical violation of WCAG 2.2
    AA inside the elements `include` names (CSS selectors); [] when there is none."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(_axe_source())  # evaluated by the browser's debugger: no page CSP applies
    return page.evaluate("""async (include) => {
        const found = include.filter((s) => document.querySelector(s));
        if (!found.length) return ['nothing to audit: ' + include.join(', ')];
        const result = await axe.run({include: found.map((s) => [s])},
            {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']});
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' > ')}: ${n.failureSummary}`));
    }""" % TAGS, list(include))


def audit_themes(page: Page, include: tuple[str, ...] = WIDGET) -> list[str]:
    """audit() in the site's light theme, then its dark one (Docusaurus's html[data-theme]); the
    page is left light."""
    found = []
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.wait_for_timeout(50)  # the widget follows on the attribute's change
        found += [f"{theme}: {v}" for v in audit(page, include)]
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")
    return found

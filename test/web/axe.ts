// axe-core (the accessibility rules browsers' audit tools run) in a page under test: the
// violations a person would meet (impact serious or critical), each with the elements it found,
// in a form a failed assertion can print.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: string | undefined;
/** axe.min.js, read once per test file. */
const axeSource = () => (source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

export interface AxeViolation {
  /** The rule's id (color-contrast, label, button-name…): what to look up at dequeuniversity.com/rules/axe. */
  id: string;
  impact: 'serious' | 'critical';
  help: string;
  /** Each element the rule failed on: its CSS path and its opening tag. */
  nodes: Array<{ target: string; html: string; summary: string }>;
}

/**
 * Runs axe-core on the page as it is now and returns its serious and critical violations.
 * The page's CSP (script-src 'self') refuses inline scripts, so `page.addScriptTag({ content })`
 * would be blocked: the source is evaluated through the DevTools protocol instead, which no
 * CSP governs, and it leaves no element in the page.
 */
export async function axeViolations(page: Page, options: { exclude?: string[] } = {}): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource());
  return page.evaluate(async (exclude) => {
    type Result = { id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; html: string; failureSummary?: string }> };
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Result[] }> } }).axe;
    const context = exclude.length ? { include: [['html']], exclude: exclude.map((s) => [s]) } : document;
    const { violations } = await axe.run(context, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact as 'serious' | 'critical',
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), html: n.html.slice(0, 160), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240) })),
      }));
  }, options.exclude ?? []);
}

/** One line per violation, an indented line per element: readable in a failed test's output. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => [`${v.id} (${v.impact}): ${v.help}`, ...v.nodes.map((n) => `    ${n.target}  ${n.html}${n.summary ? `\n      ${n.summary}` : ''}`)].join('\n'))
    .join('\n');
}

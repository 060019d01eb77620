import { describe, expect, it } from 'vitest';
import {
  badgeSignature, badgeUrls, checkBadgeSummary, decodeTagSegment, shieldsJson, summarizeBadge, verifyBadgeSignature,
} from '../../../src/monitoring/badges/badge.ts';
import { renderBadgeSvg, textWidth } from '../../../src/monitoring/badges/svg.ts';

const KEY = 'a'.repeat(64);

describe('signatures and URLs', () => {
  it('signs per tag with 8 URL-safe characters, stable across calls', () => {
    const sig = badgeSignature(KEY, 'web');
    expect(sig).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(badgeSignature(KEY, 'web')).toBe(sig);
    expect(badgeSignature(KEY, 'db')).not.toBe(sig);
    expect(badgeSignature('b'.repeat(64), 'web')).not.toBe(sig);
  });

  it('tells two-state from three-state signatures and rejects forgeries', () => {
    const sig = badgeSignature(KEY, 'web');
    expect(verifyBadgeSignature(KEY, 'web', `${sig}-2`)).toEqual({ valid: true, states: 2 });
    expect(verifyBadgeSignature(KEY, 'web', sig)).toEqual({ valid: true, states: 3 });
    expect(verifyBadgeSignature(KEY, 'web', `${sig}xyz`)).toEqual({ valid: true, states: 3 });
    expect(verifyBadgeSignature(KEY, 'db', sig).valid).toBe(false);
    expect(verifyBadgeSignature(KEY, 'web', 'short').valid).toBe(false);
  });

  it('builds the seed URL shapes, double-encoding tags so they survive one decode', () => {
    const sig = badgeSignature(KEY, 'db@dc1');
    const urls = badgeUrls('https://hc.example', 'p1', KEY, 'db@dc1');
    expect(urls.svg).toBe(`https://hc.example/badge/p1/${sig}-2/db%2540dc1.svg`);
    expect(urls.svg3).toBe(`https://hc.example/badge/p1/${sig}/db%2540dc1.svg`);
    expect(Object.keys(urls)).toEqual(['svg', 'svg3', 'json', 'json3', 'shields', 'shields3']);
    const all = badgeUrls('https://hc.example', 'p1', KEY, '*');
    expect(all.json).toBe(`https://hc.example/badge/p1/${badgeSignature(KEY, '*')}-2.json`);
    for (const tag of ['db@dc1', 'a/b', 'with space', "it's!"]) {
      const segment = badgeUrls('', 'p', KEY, tag).svg.split('/').pop()!.replace(/\.svg$/, '');
      expect(decodeTagSegment(decodeURIComponent(segment))).toBe(tag);
    }
  });
});

describe('summaries', () => {
  it('lets down win, and shows grace as late only with three states', () => {
    expect(summarizeBadge([], 3)).toEqual({ status: 'up', total: 0, grace: 0, down: 0 });
    expect(summarizeBadge(['up', 'grace', 'new', 'paused'], 3)).toEqual({ status: 'late', total: 4, grace: 1, down: 0 });
    expect(summarizeBadge(['up', 'grace'], 2)).toEqual({ status: 'up', total: 2, grace: 1, down: 0 });
    expect(summarizeBadge(['grace', 'down', 'grace'], 3)).toEqual({ status: 'down', total: 3, grace: 2, down: 1 });
    expect(checkBadgeSummary('grace', 3)).toEqual({ status: 'late', total: 1, grace: 1, down: 0 });
    expect(checkBadgeSummary('grace', 2)).toMatchObject({ status: 'up' });
    expect(checkBadgeSummary('down', 2)).toEqual({ status: 'down', total: 1, grace: 0, down: 1 });
  });

  it('maps states to Shields colours', () => {
    expect(shieldsJson('web', 'up')).toEqual({ schemaVersion: 1, label: 'web', message: 'up', color: 'success' });
    expect(shieldsJson('web', 'late').color).toBe('important');
    expect(shieldsJson('web', 'down').color).toBe('critical');
  });
});

describe('SVG', () => {
  it('sizes the badge from the width table and colours it by status', () => {
    expect(textWidth('foo')).toBe(4 + 7 + 7);
    const svg = renderBadgeSvg('foo', 'up');
    // foo: 18 + 10 = 28; up: 14 + 10 = 24.
    expect(svg).toContain('width="52" height="20"');
    expect(svg).toContain('<rect x="28" width="24" height="20" fill="#4c1"/>');
    expect(svg).toContain('<text x="14.0" y="14">foo</text>');
    expect(svg).toContain('<text x="40.0" y="14">up</text>');
    expect(renderBadgeSvg('foo', 'late')).toContain('fill="#fe7d37"');
    expect(renderBadgeSvg('foo', 'down')).toContain('fill="#e05d44"');
  });

  it('escapes the label', () => {
    const svg = renderBadgeSvg('<a&"b>', 'up');
    expect(svg).toContain('&lt;a&amp;&quot;b&gt;');
    expect(svg).not.toContain('<a&');
  });
});

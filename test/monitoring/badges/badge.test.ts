import { describe, expect, it } from 'vitest';
import {
  badgeJson, badgeSignature, badgeUrls, checkBadgeSummary, decodeTagSegment, isBadgeFormat, isTagSegment, legacySigningKey, renderBadgeSvg,
  saltedHmacKey, shieldsJson, summarizeBadge, verifyBadgeSignature,
} from '../../../src/monitoring/badges/badge.ts';
import { textWidth } from '../../../src/monitoring/badges/svg.ts';

const KEY = legacySigningKey('a'.repeat(64));

describe('signatures', () => {
  it('signs per tag with 8 URL-safe characters, stable across calls', () => {
    const sig = badgeSignature(KEY, 'web');
    expect(sig).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(badgeSignature(KEY, 'web')).toBe(sig);
    expect(badgeSignature(KEY, 'db')).not.toBe(sig);
    expect(badgeSignature(legacySigningKey('b'.repeat(64)), 'web')).not.toBe(sig);
  });

  it("matches Django's base64_hmac (badge_key 'alice' + SECRET_KEY '---')", () => {
    expect(badgeSignature(saltedHmacKey('alice', '---'), 'foo')).toBe('HLoyq8dX');
    expect(badgeSignature(saltedHmacKey('alice', '---'), '*')).toBe('6SKpySaJ');
  });

  it('tells two-state from three-state signatures and rejects forgeries', () => {
    const sig = badgeSignature(KEY, 'web');
    expect(verifyBadgeSignature(KEY, 'web', `${sig}-2`)).toEqual({ valid: true, states: 2 });
    expect(verifyBadgeSignature(KEY, 'web', sig)).toEqual({ valid: true, states: 3 });
    // Only the first 8 characters are compared; anything but exactly "-2" is three-state.
    expect(verifyBadgeSignature(KEY, 'web', `${sig}xyz`)).toEqual({ valid: true, states: 3 });
    expect(verifyBadgeSignature(KEY, 'web', `${sig}-2x`)).toEqual({ valid: true, states: 3 });
    expect(verifyBadgeSignature(KEY, 'web', `${sig}-3`)).toEqual({ valid: true, states: 3 });
    expect(verifyBadgeSignature(KEY, 'db', sig).valid).toBe(false);
    expect(verifyBadgeSignature(KEY, 'db', `${sig}-2`)).toEqual({ valid: false, states: 2 });
    expect(verifyBadgeSignature(KEY, 'web', 'short').valid).toBe(false);
    expect(verifyBadgeSignature(KEY, 'web', '').valid).toBe(false);
    // Healthchecks routes the signature as a slug: other characters never validate.
    expect(verifyBadgeSignature(KEY, 'web', `${sig}!`).valid).toBe(false);
  });
});

describe('URLs and tag segments', () => {
  it('builds the seed URL shapes, double-encoding tags so they survive one decode', () => {
    const sig = badgeSignature(KEY, 'db@dc1');
    const urls = badgeUrls('https://hc.example', 'p1', KEY, 'db@dc1');
    expect(urls).toEqual({
      svg: `https://hc.example/badge/p1/${sig}-2/db%2540dc1.svg`,
      svg3: `https://hc.example/badge/p1/${sig}/db%2540dc1.svg`,
      json: `https://hc.example/badge/p1/${sig}-2/db%2540dc1.json`,
      json3: `https://hc.example/badge/p1/${sig}/db%2540dc1.json`,
      shields: `https://hc.example/badge/p1/${sig}-2/db%2540dc1.shields`,
      shields3: `https://hc.example/badge/p1/${sig}/db%2540dc1.shields`,
    });
    const star = badgeSignature(KEY, '*');
    const all = badgeUrls('https://hc.example', 'p1', KEY, '*');
    expect(all.json).toBe(`https://hc.example/badge/p1/${star}-2.json`);
    expect(all.svg3).toBe(`https://hc.example/badge/p1/${star}.svg`);
  });

  it('round-trips awkward tags through one standard decode plus decodeTagSegment', () => {
    expect(badgeUrls('', 'p', KEY, 'a/b c').svg).toMatch(/\/a%252Fb%2520c\.svg$/);
    for (const tag of ['db@dc1', 'a/b', 'with space', "it's!(x)*", 'ü😀', '100%', 'a.b']) {
      const url = badgeUrls('', 'p', KEY, tag).svg;
      const segment = decodeURIComponent(url.split('/').pop()!.replace(/\.svg$/, ''));
      expect(isTagSegment(segment)).toBe(true);
      expect(decodeTagSegment(segment)).toBe(tag);
    }
  });

  it("decodes leniently like Python's unquote", () => {
    expect(decodeTagSegment('db%40dc1')).toBe('db@dc1');
    expect(decodeTagSegment('100%')).toBe('100%');
    expect(decodeTagSegment('a%20b%zz')).toBe('a b%zz');
    expect(decodeTagSegment('%FF')).toBe('\ufffd');
    expect(decodeTagSegment('%EF%BB%BFx')).toBe('\ufeffx');
    expect(isTagSegment('db@dc1')).toBe(false);
    expect(isTagSegment('ü_~.-%40')).toBe(true);
  });

  it('knows the three formats', () => {
    expect(['svg', 'json', 'shields'].every(isBadgeFormat)).toBe(true);
    expect(isBadgeFormat('png')).toBe(false);
  });
});

describe('summaries', () => {
  it('lets down win, and shows grace as late only with three states', () => {
    expect(summarizeBadge([], 3)).toEqual({ status: 'up', total: 0, grace: 0, down: 0 });
    expect(summarizeBadge(['up', 'grace', 'new', 'paused'], 3)).toEqual({ status: 'late', total: 4, grace: 1, down: 0 });
    expect(summarizeBadge(['up', 'grace'], 2)).toEqual({ status: 'up', total: 2, grace: 1, down: 0 });
    expect(summarizeBadge(['grace', 'down', 'grace', 'down'], 3)).toEqual({ status: 'down', total: 4, grace: 2, down: 2 });
    expect(summarizeBadge(['down', 'grace'], 3, 'shields')).toMatchObject({ status: 'down', total: 2 });
  });

  it('stops counting at the first down for svg, as Healthchecks does', () => {
    expect(summarizeBadge(['grace', 'down', 'grace', 'down'], 3, 'svg')).toEqual({ status: 'down', total: 2, grace: 1, down: 1 });
  });

  it('summarizes a single check', () => {
    expect(checkBadgeSummary('grace', 3)).toEqual({ status: 'late', total: 1, grace: 1, down: 0 });
    expect(checkBadgeSummary('grace', 2)).toEqual({ status: 'up', total: 1, grace: 1, down: 0 });
    expect(checkBadgeSummary('grace', 7)).toMatchObject({ status: 'up' });
    expect(checkBadgeSummary('down', 2)).toEqual({ status: 'down', total: 1, grace: 0, down: 1 });
    expect(checkBadgeSummary('paused', 3)).toEqual({ status: 'up', total: 1, grace: 0, down: 0 });
  });

  it('serializes json and Shields bodies in Healthchecks key order', () => {
    expect(JSON.stringify(badgeJson({ down: 1, grace: 0, total: 2, status: 'down' }))).toBe('{"status":"down","total":2,"grace":0,"down":1}');
    expect(JSON.stringify(shieldsJson('web', 'up'))).toBe('{"schemaVersion":1,"label":"web","message":"up","color":"success"}');
    expect(shieldsJson('web', 'late').color).toBe('important');
    expect(shieldsJson('web', 'down').color).toBe('critical');
  });
});

describe('SVG', () => {
  it('sizes the badge from the width table and colours it by status', () => {
    expect(textWidth('foo')).toBe(4 + 7 + 7);
    expect(textWidth('W😀')).toBe(11 + 7); // unknown characters count 7, per code point
    const svg = renderBadgeSvg('foo', 'up');
    // foo: 18 + 10 = 28; up: 14 + 10 = 24.
    expect(svg).toContain('width="52" height="20"');
    expect(svg).toContain('<rect width="28" height="20" fill="#555"/>');
    expect(svg).toContain('<rect x="28" width="24" height="20" fill="#4c1"/>');
    expect(svg).toContain('<text x="14.0" y="14">foo</text>');
    expect(svg).toContain('<text x="40.0" y="15" fill="#010101" fill-opacity=".3">up</text>');
    expect(svg.endsWith('</svg>\n')).toBe(true);
    expect(renderBadgeSvg('foo', 'late')).toContain('fill="#fe7d37"');
    expect(renderBadgeSvg('foo', 'down')).toContain('fill="#e05d44"');
  });

  it('formats centres like Python floats', () => {
    // i: 3 + 10 = 13 → 6.5; up: 24 → 13 + 12 = 25.0.
    const svg = renderBadgeSvg('i', 'up');
    expect(svg).toContain('<text x="6.5" y="14">i</text>');
    expect(svg).toContain('<text x="25.0" y="14">up</text>');
  });

  it('escapes the label as Django templates do', () => {
    const svg = renderBadgeSvg(`<a&"b'>`, 'up');
    expect(svg).toContain('>&lt;a&amp;&quot;b&#x27;&gt;</text>');
    expect(svg).not.toContain('<a&');
  });
});

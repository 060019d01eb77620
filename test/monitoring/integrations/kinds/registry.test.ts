// The registry (src/monitoring/integrations/kinds/index.ts) is the only list of channel kinds:
// every kind folder is registered, every registered kind has a folder with its definition and
// transport, and no other source file singles a kind out by name.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHANNEL_KIND_DEFINITIONS, CHANNEL_KINDS, channelKind } from '../../../../src/monitoring/integrations/kinds/index.ts';
import { CHANNEL_KINDS as FROM_SERVICE } from '../../../../src/monitoring/integrations/service.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const kindsDir = path.join(root, 'src/monitoring/integrations/kinds');
/** Folders under kinds/ that are not a kind. */
const NOT_KINDS = ['shared'];

const folders = readdirSync(kindsDir).filter((f) => statSync(path.join(kindsDir, f)).isDirectory() && !NOT_KINDS.includes(f));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' || e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('the channel kind registry', () => {
  it('lists the kinds in the order the API names them, and service.ts gives the same list', () => {
    expect(CHANNEL_KINDS).toEqual(['email', 'webhook', 'sms', 'slack', 'mattermost', 'rocketchat', 'discord', 'pagerduty', 'opsgenie', 'victorops', 'pagertree', 'spike', 'ntfy', 'pushover', 'pushbullet', 'gotify', 'msteams', 'googlechat', 'zulip', 'telegram', 'whatsapp', 'call', 'matrix', 'signal', 'apprise', 'shell', 'group', 'github', 'trello']);
    expect(FROM_SERVICE).toEqual(CHANNEL_KINDS);
    expect(new Set(CHANNEL_KINDS).size).toBe(CHANNEL_KINDS.length);
  });

  it('registers every kind folder, and every registered kind is the folder of its name', () => {
    expect([...CHANNEL_KINDS].sort()).toEqual([...folders].sort());
  });

  it.each(CHANNEL_KIND_DEFINITIONS.map((d) => [d.kind, d] as const))('%s has its definition, validation and transport in its folder', async (kind, definition) => {
    const folder = path.join(kindsDir, kind);
    expect(readdirSync(folder)).toEqual(expect.arrayContaining(['index.ts', 'transport.ts']));
    // The definition the registry holds is the one the folder's index.ts exports.
    const exported = Object.values(await import(path.join(folder, 'index.ts')));
    expect(exported).toContain(definition);
    expect(channelKind(kind)).toBe(definition);
    expect(definition.label).not.toBe('');
    expect(typeof definition.validateValue).toBe('function');
    const transport = await definition.transport();
    expect(typeof transport.send).toBe('function');
  });

  it('knows no other kind', () => {
    expect(channelKind('pager')).toBeUndefined();
    expect(channelKind('')).toBeUndefined();
    expect(channelKind('toString')).toBeUndefined();
  });

  it('is the only place that singles a kind out: no source file outside a kind folder compares with or lists kind names', () => {
    const names = CHANNEL_KINDS.join('|');
    const literal = `['"\`](?:${names})['"\`]`;
    // A comparison, a case label, or a line naming two kinds (a list of them, like the old CHAT_KINDS).
    const comparison = new RegExp(`(?:[!=]==?\\s*${literal})|(?:${literal}\\s*[!=]==?)|(?:case\\s+${literal})`);
    const twoKinds = new RegExp(`${literal}.*${literal}`);
    const offenders: string[] = [];
    for (const dir of ['src', 'rest-compat', 'web']) {
      for (const file of sourceFiles(path.join(root, dir))) {
        const rel = path.relative(root, file).split(path.sep).join('/');
        const own = /^src\/monitoring\/integrations\/kinds\/([^/]+)\//.exec(rel)?.[1];
        if (own && !NOT_KINDS.includes(own)) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            // JSX attributes (`type="email"` on an input) are HTML, not a channel kind; nor are an
            // input's type and autocomplete given as fields (`type: 'email'`, `f.type === 'email'`).
            const code = line
              .replace(/\/\/.*$/, '')
              .replace(/\s[a-zA-Z-]+="[^"]*"/g, ' ')
              .replace(/\b(?:type|autocomplete)\s*(?::|===)\s*'[^']*'/g, ' ');
            if (/^\s*\*/.test(code)) return;
            if (comparison.test(code) || twoKinds.test(code)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(offenders).toEqual([]);
  });

  it('catches the chains it forbids', () => {
    const names = CHANNEL_KINDS.join('|');
    const literal = `['"\`](?:${names})['"\`]`;
    const comparison = new RegExp(`(?:[!=]==?\\s*${literal})|(?:${literal}\\s*[!=]==?)|(?:case\\s+${literal})`);
    expect(comparison.test("if (channel.kind === 'webhook') {")).toBe(true);
    expect(comparison.test("case 'sms':")).toBe(true);
    expect(comparison.test("scheme: 'email',")).toBe(false);
  });
});

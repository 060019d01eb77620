// Signal: Healthchecks' PhoneConf value (or a bare number or username), SIGNAL_CLI_SOCKET, and
// the JSON-RPC "send" request a local signal-cli stand-in receives on a real UNIX socket (and on
// host:port): the recipient, the plain text of signal_message.html and its bold/monospace
// styles, for down and for up. "Recipient not found" fails for good; a CAPTCHA rate limit, other
// errors, an unreadable reply and a missing socket are retried.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { extractSignalStyles } from '../../../../../src/monitoring/integrations/kinds/signal/message.ts';
import { authorizeSignal, callSignalCli } from '../../../../../src/monitoring/integrations/kinds/signal/transport.ts';
import { inspectConfig } from '../../../../../src/config/index.ts';
import { fieldsOf, KINDS, valueOf } from '../../../../../web/integrations/kinds.ts';
import { flipDown, incidentCheck, notificationsOf, refusal } from '../helpers.ts';

interface RpcRequest {
  jsonrpc: string;
  method: string;
  params: { recipient: string[]; message: string; textStyle: string[] };
  id: string;
}

/** A signal-cli stand-in: records each request line and answers with the lines `answer` gives. */
function startSignalCli(listenOn: string | 0) {
  const requests: RpcRequest[] = [];
  let answer: (req: RpcRequest) => string[] = (req) => [JSON.stringify({ jsonrpc: '2.0', result: { timestamp: 1 }, id: req.id })];
  const server = net.createServer((conn) => {
    let buffer = '';
    conn.setEncoding('utf8');
    conn.on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      const req = JSON.parse(buffer.slice(0, newline)) as RpcRequest;
      requests.push(req);
      conn.end(answer(req).map((l) => `${l}\n`).join(''));
    });
  });
  return {
    requests,
    answer: (fn: typeof answer) => (answer = fn),
    listen: () => new Promise<string>((resolve) => server.listen(listenOn, () => resolve(typeof listenOn === 'string' ? listenOn : `127.0.0.1:${(server.address() as net.AddressInfo).port}`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'signal-cli-'));
const socketPath = path.join(dir, 'socket');
const cli = startSignalCli(socketPath);
const sent = (req: RpcRequest) => [JSON.stringify({ jsonrpc: '2.0', result: { timestamp: 1 }, id: req.id })];
const failure = (req: RpcRequest, code: number, results: unknown[]) => JSON.stringify({ jsonrpc: '2.0', error: { code, message: 'Failed to send message', data: { response: { timestamp: 1, results } } }, id: req.id });
let number = 15550001000;
/** A new recipient per test: the per-recipient rate limit is per process. */
const nextNumber = () => `+${++number}`;
let w: World;

beforeAll(async () => {
  await cli.listen();
  w = await createWorld({ SITE_ROOT: 'https://checks.example.org', SIGNAL_CLI_SOCKET: socketPath });
});
afterAll(async () => {
  await w?.stop();
  await cli.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  cli.requests.length = 0;
  cli.answer(sent);
});

describe('signal: the value', () => {
  it('takes Healthchecks’ PhoneConf, a username, or a bare number, with the statuses it sends', () => {
    expect(validateChannelInput({ kind: 'signal', value: '{"value": "+15551234567", "up": true, "down": true}' })).toMatchObject({ kind: 'signal', notifyDown: true, notifyUp: true });
    expect(validateChannelInput({ kind: 'signal', value: '{"value": "+15551234567", "up": false, "down": true}' })).toMatchObject({ notifyDown: true, notifyUp: false });
    expect(validateChannelInput({ kind: 'signal', value: '{"value": "alice.42", "up": true, "down": false}' })).toMatchObject({ notifyDown: false, notifyUp: true });
    expect(validateChannelInput({ kind: 'signal', value: '+15551234567' })).toMatchObject({ notifyDown: true, notifyUp: true });
  });

  it('refuses what Healthchecks’ form refuses, with its messages', () => {
    const cases: Array<[string, string]> = [
      ['15551234567', 'Invalid phone number format.'],
      ['{"value": "+1234", "up": true, "down": true}', 'Invalid phone number format.'],
      ['{"value": "al.1", "up": true, "down": true}', 'Invalid username format.'],
      ['{"value": 15551234567}', 'value must be a phone number or username (text)'],
      ['{"value": "+15551234567", "up": "yes"}', 'up must be true or false'],
      ['{"value": "+15551234567"', 'value must be a phone number, a username, or {"value": "+15551234567", "up": true, "down": true}'],
      ['{"value": "+15551234567", "up": false, "down": false}', 'a channel must notify of down, up or both'],
    ];
    for (const [value, message] of cases) expect(refusal(() => validateChannelInput({ kind: 'signal', value })), value).toBe(message);
  });
});

describe('signal: the app’s form', () => {
  it('stores Healthchecks’ PhoneConf, spaces and dashes stripped as its form does, and reads it back', () => {
    const value = valueOf(KINDS.SIGNAL, { recipient: ' +1 555-123-4567 ' });
    expect(value).toBe('{"value":"+15551234567","up":true,"down":true}');
    expect(validateChannelInput({ kind: 'signal', value })).toMatchObject({ kind: 'signal', value });
    expect(fieldsOf(KINDS.SIGNAL, '{"value": "alice.42", "up": false, "down": true}')).toEqual({ recipient: 'alice.42' });
    expect(fieldsOf(KINDS.SIGNAL, '+15551234567')).toEqual({ recipient: '+15551234567' });
  });
});

describe('signal: the alerts', () => {
  it('sends Healthchecks’ message as plain text with its styles, for down and for up', async () => {
    const recipient = nextNumber();
    const c = await incidentCheck(w, 'signal', JSON.stringify({ value: recipient, up: true, down: true }), { name: 'Grades & export', tags: 'prod db' });
    const other = await w.api('POST', '/api/v3/checks/', { body: { name: 'Roster <sync>' } });
    await w.ping(`/ping/${other.json.uuid}/fail`);
    await c.down();
    expect(cli.requests).toHaveLength(1);
    const down = cli.requests[0]!;
    expect(down).toMatchObject({ jsonrpc: '2.0', method: 'send', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const text = [
      'The check Grades & export is DOWN (success signal did not arrive on time, grace time passed).',
      '',
      'Project: Alice',
      'Tags: prod, db',
      'Period: 1 minute',
      'Total Pings: 1',
      'Last Ping: Success, 2 minutes ago',
      '',
      'The following checks are also down:',
      '• Roster <sync> (last ping: 2 minutes ago)',
    ].join('\n');
    expect(down.params).toEqual({
      recipient: [recipient],
      message: text,
      // "Grades & export", "DOWN", then each fact's label and the other check's name, in bold.
      textStyle: ['10:15:BOLD', '29:4:BOLD', '95:8:BOLD', '110:5:BOLD', '125:7:BOLD', '142:12:BOLD', '157:10:BOLD', '230:13:BOLD'],
    });
    const bold = down.params.textStyle.map((s) => s.split(':').map(Number)).map(([start, length]) => text.slice(start, start! + length!));
    expect(bold).toEqual(['Grades & export', 'DOWN', 'Project:', 'Tags:', 'Period:', 'Total Pings:', 'Last Ping:', 'Roster <sync>']);
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'sent', attempts: 1 }]);

    await c.up();
    expect(cli.requests).toHaveLength(2);
    const up = cli.requests[1]!;
    expect(up.params.message.split('\n')[0]).toBe('The check Grades & export is now UP. The downtime lasted 38 minutes, 0 seconds.');
    expect(up.params.message).toContain('The following checks are still down:');
    expect(up.params.textStyle.slice(0, 2)).toEqual(['10:15:BOLD', '33:2:BOLD']);
  });

  it('addresses a username with "u:", and sends nothing for a status the value leaves out', async () => {
    const c = await incidentCheck(w, 'signal', '{"value": "alice.42", "up": false, "down": true}', { name: 'solo' });
    await c.down();
    expect(cli.requests.map((r) => r.params.recipient)).toEqual([['u:alice.42']]);
    await c.up();
    expect(cli.requests).toHaveLength(1);
    expect(await notificationsOf(w, c.channel.id)).toHaveLength(1);
  });

  it('fails for good when signal-cli says the recipient is not registered', async () => {
    cli.answer((req) => [failure(req, -1, [{ recipientAddress: { number: req.params.recipient[0] }, type: 'UNREGISTERED_FAILURE' }])]);
    const c = await incidentCheck(w, 'signal', nextNumber());
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Recipient not found' }]);
  });

  it('retries a CAPTCHA rate limit, another error, and an unreadable reply, skipping lines that are not its reply', async () => {
    cli.answer((req) => [failure(req, -5, [{ type: 'RATE_LIMIT_FAILURE', token: 'challenge-token' }])]);
    const a = await incidentCheck(w, 'signal', nextNumber());
    await a.down();
    expect(await notificationsOf(w, a.channel.id)).toMatchObject([{ state: 'pending', attempts: 1, lastError: 'CAPTCHA proof required' }]);

    // A notice of a received message first (no id), then our error.
    cli.answer((req) => [JSON.stringify({ jsonrpc: '2.0', method: 'receive', params: { envelope: {} } }), failure(req, -3, [{ type: 'NETWORK_FAILURE' }])]);
    const b = await incidentCheck(w, 'signal', nextNumber());
    await b.down();
    expect(await notificationsOf(w, b.channel.id)).toMatchObject([{ state: 'pending', lastError: 'signal-cli call failed (-3)' }]);

    cli.answer(() => ['not json']);
    const c = await incidentCheck(w, 'signal', nextNumber());
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'pending', lastError: 'signal-cli call failed (unexpected response)' }]);
  });

  it('retries when signal-cli is not listening, and when it does not answer in time', async () => {
    await expect(callSignalCli(path.join(dir, 'missing'), { id: 'x' }, 1000)).rejects.toMatchObject({ message: 'signal-cli call failed (ENOENT)', permanent: false });
    const silent = net.createServer(() => undefined);
    const silentPath = path.join(dir, 'silent');
    await new Promise<void>((resolve) => silent.listen(silentPath, () => resolve()));
    try {
      await expect(callSignalCli(silentPath, { id: 'x' }, 200)).rejects.toMatchObject({ message: 'signal-cli call timed out', permanent: false });
    } finally {
      silent.close();
    }
  });

  it('speaks to host:port as well, as Healthchecks does for a value with ":"', async () => {
    const tcp = startSignalCli(0);
    const address = await tcp.listen();
    try {
      await callSignalCli(address, { jsonrpc: '2.0', method: 'send', params: { recipient: ['+15550009999'], message: 'hi', textStyle: [] }, id: 'req-1' }, 2000);
      expect(tcp.requests).toEqual([{ jsonrpc: '2.0', method: 'send', params: { recipient: ['+15550009999'], message: 'hi', textStyle: [] }, id: 'req-1' }]);
    } finally {
      await tcp.close();
    }
  });
});

describe('signal: Healthchecks’ limits and markup', () => {
  it('lets 6 messages a minute through per recipient', () => {
    const t = 9_000_000;
    expect(Array.from({ length: 7 }, (_, i) => authorizeSignal('+15550000001', t + i))).toEqual([true, true, true, true, true, true, false]);
    expect(authorizeSignal('+15550000002', t)).toBe(true);
    expect(authorizeSignal('+15550000001', t + 10_010)).toBe(true);
  });

  it('turns <b> and <code> into styles and unescapes the rest, as extract_signal_styles', () => {
    expect(extractSignalStyles('<b>foo</b> bar')).toEqual({ text: 'foo bar', styles: ['0:3:BOLD'] });
    expect(extractSignalStyles('<b>Schedule:</b> <code>*/5 * * * *</code> &lt;x&gt; &amp; &#x27;')).toEqual({ text: "Schedule: */5 * * * * <x> & '", styles: ['0:9:BOLD', '10:11:MONOSPACE'] });
  });
});

describe('signal: without SIGNAL_CLI_SOCKET', () => {
  it('is refused for good, and signal-cli gets nothing', async () => {
    const off = await createWorld();
    try {
      await flipDown(off, 'signal', nextNumber());
      expect(await off.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Signal notifications are not enabled.' }]);
      expect(cli.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });

  it('refuses a SIGNAL_CLI_SOCKET with a ":" that is not host:port', () => {
    expect(inspectConfig({ SIGNAL_CLI_SOCKET: 'localhost:port' }).problems).toEqual([
      { name: 'SIGNAL_CLI_SOCKET', value: 'localhost:port', message: 'expected the path of a UNIX socket, or host:port (e.g. 127.0.0.1:7583)' },
    ]);
    expect(inspectConfig({ SIGNAL_CLI_SOCKET: '127.0.0.1:7583' }).config?.notify.signalCliSocket).toBe('127.0.0.1:7583');
  });
});

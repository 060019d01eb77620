// Healthchecks' Signal transport: one JSON-RPC "send" request line to signal-cli's socket
// (SIGNAL_CLI_SOCKET: a UNIX socket path, or host:port), then the reply lines are read until
// the one with the request's id. Healthchecks' judgement of the reply: an unregistered recipient
// fails for good ("Recipient not found"); a rate limit asking for a CAPTCHA proof, and any other
// error, are retried. At most 6 messages a minute per recipient leave this process.
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { TokenBucket } from '../shared/token-bucket.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { signalConf } from './config.ts';
import { extractSignalStyles, signalMarkup } from './message.ts';

/** Healthchecks' TokenBucket.authorize_signal: 6 messages a minute per recipient. */
const perRecipient = new TokenBucket(6, 60_000);
export const authorizeSignal = (recipient: string, now = Date.now()) => perRecipient.authorize(recipient, now);

interface Reply {
  id?: unknown;
  error?: { code?: unknown; data?: { response?: { results?: Array<{ type?: unknown; token?: unknown }> } } } | null;
}

/** Where SIGNAL_CLI_SOCKET points: with a ":" host and port, as Healthchecks splits it, else a UNIX socket. */
function connectOptions(socket: string): net.NetConnectOpts {
  if (!socket.includes(':')) return { path: socket };
  const [host, port] = socket.split(':');
  return { host: host!, port: Number(port) };
}

/** Healthchecks' verdict on the reply to our request: undefined when the message was sent. */
function judge(reply: Reply): DeliveryError | undefined {
  if (reply.error === undefined || reply.error === null) return undefined;
  // Healthchecks' Reply model wants an integer code: anything else is an unexpected response.
  if (!Number.isInteger(reply.error.code)) return new DeliveryError('signal-cli call failed (unexpected response)');
  for (const result of reply.error.data?.response?.results ?? []) {
    if (result.type === 'UNREGISTERED_FAILURE') return new DeliveryError('Recipient not found', true);
    // Healthchecks also mails its admins the challenge token; an operator answers it with
    // signal-cli's submitRateLimitChallenge. Until then every attempt gets the same answer.
    if (result.type === 'RATE_LIMIT_FAILURE' && result.token) return new DeliveryError('CAPTCHA proof required');
  }
  return new DeliveryError(`signal-cli call failed (${reply.error.code as number})`);
}

/**
 * Sends `payload` as one line, stops writing (as Healthchecks shuts the socket's write side), and
 * settles on the reply line with the payload's id. Replies without it (signal-cli's notices of
 * received messages) are skipped; a line that is not JSON, or the end without our reply, is
 * Healthchecks' "unexpected response".
 */
export function callSignalCli(socket: string, payload: { id: string } & Record<string, unknown>, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let buffer = '';
    const conn = net.connect(connectOptions(socket));
    const finish = (err?: DeliveryError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => finish(new DeliveryError('signal-cli call timed out')), timeoutMs);
    conn.setEncoding('utf8');
    conn.on('connect', () => conn.end(`${JSON.stringify(payload)}\n`));
    conn.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while (!settled && (newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        let reply: Reply;
        try {
          reply = JSON.parse(line) as Reply;
          if (typeof reply !== 'object' || reply === null) throw new Error('not an object');
        } catch {
          return finish(new DeliveryError('signal-cli call failed (unexpected response)'));
        }
        if (reply.id !== payload.id) continue;
        return finish(judge(reply));
      }
    });
    conn.on('end', () => finish(new DeliveryError('signal-cli call failed (unexpected response)')));
    // ENOENT (no socket file), ECONNREFUSED…: the operator's signal-cli is not there; retried.
    conn.on('error', (err: NodeJS.ErrnoException) => finish(new DeliveryError(`signal-cli call failed (${err.code ?? err.message})`)));
  });
}

export const signalTransport: Transport = {
  async send(d) {
    const socket = d.settings.signalCliSocket;
    if (!socket) throw new DeliveryError('Signal notifications are not enabled.', true);
    const conf = signalConf(d.channel.value);
    if (!authorizeSignal(conf.recipient)) throw new DeliveryError('Rate limit exceeded');
    const { text, styles } = extractSignalStyles(await signalMarkup(d));
    // Usernames are addressed with a "u:" prefix.
    const recipient = conf.recipient.includes('.') ? `u:${conf.recipient}` : conf.recipient;
    await callSignalCli(socket, { jsonrpc: '2.0', method: 'send', params: { recipient: [recipient], message: text, textStyle: styles }, id: randomUUID() }, d.settings.timeoutMs);
  },
};

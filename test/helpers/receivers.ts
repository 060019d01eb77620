// Real local peers for delivery tests: an HTTP receiver (webhooks, chat hooks, a Twilio-like
// API) that records every request and answers as told, and an SMTP sink built on smtp-server
// that keeps every message, parsed with mailparser.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** An answer with more than a status (a Retry-After, an error document). */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** The status to answer with (default 200); a function decides per request, and may add headers and a body. */
  respond(status: number | ((req: ReceivedRequest) => number | ReceiverAnswer)): void;
  /** Holds every request unanswered until released (or the connection is cut). */
  hold(): void;
  release(): void;
  /** Resolves when `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  let status: number | ((req: ReceivedRequest) => number | ReceiverAnswer) = 200;
  let held: Array<() => void> | null = null;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      requests.push(r);
      for (const w of waiters.filter((w) => requests.length >= w.n)) w.resolve();
      const answer = () => {
        const given = typeof status === 'function' ? status(r) : status;
        const answer: ReceiverAnswer = typeof given === 'number' ? { status: given } : given;
        res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? 'ok');
      };
      if (held) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    respond: (s) => (status = s),
    hold: () => (held = []),
    release() {
      const answers = held ?? [];
      held = null;
      for (const a of answers) a();
    },
    waitFor(n, timeoutMs = 5000) {
      if (requests.length >= n) return Promise.resolve(requests.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${n} requests, got ${requests.length}`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve(requests.slice())) });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface SinkMessage {
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  port: number;
  messages: SinkMessage[];
  /** Makes the sink refuse every message with this SMTP code (null: accept). */
  refuse(code: number | null): void;
  waitFor(n: number, timeoutMs?: number): Promise<SinkMessage[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  let refusal: number | null = null;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, cb) => cb(null, { user: 'ok' }),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (refusal) return cb(Object.assign(new Error('refused by test'), { responseCode: refusal }));
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          parsed: await simpleParser(raw),
        });
        for (const w of waiters.filter((w) => messages.length >= w.n)) w.resolve();
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    refuse: (code) => (refusal = code),
    waitFor(n, timeoutMs = 5000) {
      if (messages.length >= n) return Promise.resolve(messages.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${n} messages, got ${messages.length}`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve(messages.slice())) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

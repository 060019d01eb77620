// Healthchecks' Matrix transport: a PUT of an m.room.message (plain `body` and HTML
// `formatted_body`) to the room, as the operator's bot (Authorization: Bearer
// MATRIX_ACCESS_TOKEN), through the client-server API v3. The transaction id is the
// notification's id, so the homeserver drops a retried message it already took.
//
// Healthchecks joins the room when the channel is added (its form calls /join and stores the
// room id). Our validation does not reach the network, so the bot joins here, once per room per
// process, before the first message: the join is a no-op for a room it is in, and it turns an
// alias into the room's id. A refused message (403: the bot was removed) forgets the join, so
// the retry joins again and, if that is refused too, fails saying what to do.
import { baseUrlFor, httpAttempt } from '../shared/http.ts';
import { exchange, jsonErrorOf } from '../shared/exchange.ts';
import { DeliveryError, type Delivery, type Transport } from '../shared/transport.ts';
import type { NotifySettings } from '../../../notifications/settings.ts';
import { matrixFormatted, matrixPlain } from './message.ts';

type MatrixSettings = NonNullable<NotifySettings['matrix']>;

/** Python's urllib.parse.quote (no "/" kept: a room id has none): "!" and ":" are escaped too. */
export function pyQuote(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Healthchecks' JOIN_ERRORS, by status; 403 cannot change until someone invites the bot. */
function joinError(status: number, userId: string): DeliveryError | null {
  if (status === 403) return new DeliveryError(`Matrix server returned status 403 (Forbidden).\nDid you invite ${userId} to the room?`, true);
  if (status === 429) return new DeliveryError('Matrix server returned status 429 (Too Many Requests), please try later.');
  if (status === 502) return new DeliveryError('Matrix server returned status 502 (Bad Gateway), please try later.');
  return null;
}

/** Room ids the bot has joined in this process, by the channel's value (an id or an alias). */
const joined = new Map<string, string>();

/** The homeserver is the operator's setting; a base URL from INTEGRATION_BASE_URLS follows the private-address rule. */
const allowPrivate = (d: Delivery) => baseUrlFor(d) === undefined || d.settings.allowPrivateIps;

async function join(d: Delivery, m: MatrixSettings): Promise<string> {
  const room = d.channel.value;
  const known = joined.get(room);
  if (known) return known;
  const answer = await exchange({
    method: 'POST',
    url: `${m.homeserver}/_matrix/client/v3/join/${pyQuote(room)}`,
    headers: { Authorization: `Bearer ${m.accessToken}` },
    json: {},
    timeoutMs: d.settings.timeoutMs,
    idempotencyKey: d.id,
    allowPrivateIps: allowPrivate(d),
    baseUrl: baseUrlFor(d),
  });
  const refused = joinError(answer.status, m.userId);
  if (refused) throw new DeliveryError(refused.message, refused.permanent, answer.retryAfterMs);
  let roomId: unknown;
  try {
    roomId = (JSON.parse(answer.body) as { room_id?: unknown }).room_id;
  } catch {
    roomId = undefined;
  }
  if (answer.status !== 200 || typeof roomId !== 'string' || !roomId) {
    const said = jsonErrorOf(answer.body);
    throw new DeliveryError(`Matrix server returned unexpected response${answer.status === 200 ? '' : ` (status ${answer.status}${said ? `: ${said}` : ''})`}`, false, answer.retryAfterMs);
  }
  joined.set(room, roomId);
  return roomId;
}

export const matrixTransport: Transport = {
  async send(d) {
    const m = d.settings.matrix;
    if (!m) throw new DeliveryError('Matrix notifications are not enabled.', true);
    const roomId = await join(d, m);
    let status = 0;
    await httpAttempt({
      method: 'PUT',
      url: `${m.homeserver}/_matrix/client/v3/rooms/${pyQuote(roomId)}/send/m.room.message/${encodeURIComponent(d.id)}`,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${m.accessToken}` },
      body: JSON.stringify({ msgtype: 'm.text', body: await matrixPlain(d), format: 'org.matrix.custom.html', formatted_body: await matrixFormatted(d) }),
      timeoutMs: d.settings.timeoutMs,
      idempotencyKey: d.id,
      allowPrivateIps: allowPrivate(d),
      baseUrl: baseUrlFor(d),
      failure(s) {
        status = s;
        return `Received status code ${s}`;
      },
    }).catch((err: unknown) => {
      if (status === 403) joined.delete(d.channel.value);
      throw err;
    });
  },
};

// What the screen knows of each channel kind, in one table: its label, a line of help, and the
// fields its form asks for. The server validates (and words the errors); the table only says
// what to ask. A kind that takes one value (an address, a number, a URL) is one entry with one
// field; a kind whose value packs several fields gives toValue/fromTarget. The table is keyed by
// the schema's ChannelKind, so a kind added to the server fails the type check until it has an
// entry here.
import type { ChannelKind } from './operations.ts';

export interface KindField {
  /** The key in the form's values (the one field of a single-value kind is `value`). */
  key: string;
  label: string;
  /** The input's type: the keyboard phones show (the form does not let the browser validate). */
  type: 'email' | 'tel' | 'url' | 'text' | 'password';
  placeholder?: string;
  help?: string;
  autocomplete?: string;
  /** A closed choice, shown as a select; the first option is the default (Healthchecks' form's). */
  options?: ReadonlyArray<{ value: string; label: string }>;
}

const NTFY_PRIORITIES = [
  { value: '3', label: 'Default (3)' },
  { value: '5', label: 'Max (5)' },
  { value: '4', label: 'High (4)' },
  { value: '2', label: 'Low (2)' },
  { value: '1', label: 'Min (1)' },
  { value: '0', label: 'Send nothing (0)' },
];
const PUSHOVER_PRIORITIES = [
  { value: '0', label: 'Normal (0)' },
  { value: '2', label: 'Emergency (2): repeats until acknowledged' },
  { value: '1', label: 'High (1)' },
  { value: '-1', label: 'Quiet (-1)' },
  { value: '-2', label: 'Lowest (-2)' },
  { value: '-3', label: 'Send nothing (-3)' },
];

export interface KindDescription {
  label: string;
  /** One line under the form's kind choice: what this kind sends, and where. */
  help: string;
  fields: KindField[];
  /** The createChannel/updateChannel `value` from the fields; default: the one field as typed. */
  toValue?(values: Record<string, string>): string;
  /** The fields from a channel's `target`; default: the target in the one field. */
  fromTarget?(target: string): Record<string, string>;
  /** Healthchecks' webhook spec (a request of one's own for each status) besides the value. */
  spec?: boolean;
}

const incomingHook = (service: string, placeholder: string): KindField => ({
  key: 'value',
  label: `${service} webhook URL`,
  type: 'url',
  placeholder,
  help: `The incoming webhook's address, from ${service}'s integration settings.`,
});

export const KINDS: Record<ChannelKind, KindDescription> = {
  EMAIL: {
    label: 'Email',
    help: 'An email to one address when a check goes down or comes back up.',
    fields: [{ key: 'value', label: 'Email address', type: 'email', placeholder: 'ops@example.org', autocomplete: 'email' }],
  },
  WEBHOOK: {
    label: 'Webhook',
    help: 'An HTTP request to your own service: a JSON document to one URL, or a request you write for each status.',
    fields: [{ key: 'value', label: 'URL', type: 'url', placeholder: 'https://example.org/hooks/alerts', help: 'Receives a POST with a JSON document for both statuses.' }],
    spec: true,
  },
  SMS: {
    label: 'SMS',
    help: 'A text message, sent through Twilio.',
    fields: [{ key: 'value', label: 'Phone number', type: 'tel', placeholder: '+15551234567', help: 'In international format (E.164): + and the country code.', autocomplete: 'tel' }],
  },
  WHATSAPP: {
    label: 'WhatsApp',
    help: 'A WhatsApp message through Twilio, from the operator’s approved templates (needs TWILIO_USE_WHATSAPP).',
    fields: [{ key: 'value', label: 'Phone number', type: 'tel', placeholder: '+15551234567', help: 'The WhatsApp number in international format (E.164): + and the country code.', autocomplete: 'tel' }],
  },
  CALL: {
    label: 'Phone call',
    help: 'A phone call through Twilio that reads the alert aloud when a check goes down (no call when it comes back up).',
    fields: [{ key: 'value', label: 'Phone number', type: 'tel', placeholder: '+15551234567', help: 'In international format (E.164): + and the country code.', autocomplete: 'tel' }],
  },
  SLACK: { label: 'Slack', help: 'A message in a Slack channel.', fields: [incomingHook('Slack', 'https://hooks.slack.com/services/…')] },
  MATTERMOST: { label: 'Mattermost', help: 'A message in a Mattermost channel.', fields: [incomingHook('Mattermost', 'https://mattermost.example.org/hooks/…')] },
  ROCKETCHAT: { label: 'Rocket.Chat', help: 'A message in a Rocket.Chat channel.', fields: [incomingHook('Rocket.Chat', 'https://chat.example.org/hooks/…')] },
  DISCORD: { label: 'Discord', help: 'A message in a Discord channel.', fields: [incomingHook('Discord', 'https://discord.com/api/webhooks/…')] },
  PAGERDUTY: {
    label: 'PagerDuty',
    help: 'Opens a PagerDuty incident when a check goes down and resolves it when the check comes back.',
    fields: [{ key: 'value', label: 'Integration key', type: 'text', placeholder: '32 characters', help: 'From the PagerDuty service’s Integrations tab: an “Events API v2” integration’s key.' }],
  },
  OPSGENIE: {
    label: 'Opsgenie',
    help: 'Creates an Opsgenie alert when a check goes down and closes it when the check comes back.',
    fields: [
      { key: 'key', label: 'API key', type: 'password', help: 'From an Opsgenie “API” integration (Settings → Integrations).' },
      { key: 'region', label: 'Region', type: 'text', options: [{ value: 'us', label: 'US (api.opsgenie.com)' }, { value: 'eu', label: 'EU (api.eu.opsgenie.com)' }], help: 'Where the Opsgenie account is hosted.' },
    ],
    // Healthchecks stores {"region", "key"}.
    toValue: (v) => JSON.stringify({ region: (v.region ?? '').trim().toLowerCase() || 'us', key: (v.key ?? '').trim() }),
    fromTarget: (target) => jsonFields(target, { key: 'key', region: 'region' }),
  },
  VICTOROPS: {
    label: 'Splunk On-Call',
    help: 'A Splunk On-Call (VictorOps) incident: critical when a check goes down, recovered when it comes back.',
    fields: [{ key: 'value', label: 'REST endpoint URL', type: 'url', placeholder: 'https://alert.victorops.com/integrations/generic/…/alert/…/…', help: 'The REST integration’s URL, with your routing key at its end.' }],
  },
  PAGERTREE: {
    label: 'PagerTree',
    help: 'A PagerTree incident, triggered when a check goes down and resolved when it comes back.',
    fields: [{ key: 'value', label: 'PagerTree webhook URL', type: 'url', placeholder: 'https://api.pagertree.com/integration/…', help: 'The URL of a Healthchecks.io integration in PagerTree.' }],
  },
  SPIKE: {
    label: 'Spike',
    help: 'A Spike.sh incident when a check goes down, resolved when it comes back.',
    fields: [{ key: 'value', label: 'Spike webhook URL', type: 'url', placeholder: 'https://hooks.spike.sh/…/push-events', help: 'The webhook URL of a Healthchecks.io integration in Spike.' }],
  },
  NTFY: {
    label: 'ntfy',
    help: 'A push notification to an ntfy topic (ntfy.sh or your own server).',
    fields: [
      { key: 'url', label: 'Server', type: 'url', placeholder: 'https://ntfy.sh' },
      { key: 'topic', label: 'Topic', type: 'text', placeholder: 'my-alerts' },
      { key: 'priority', label: 'Priority when down', type: 'text', options: NTFY_PRIORITIES },
      { key: 'priority_up', label: 'Priority when up', type: 'text', options: NTFY_PRIORITIES },
      { key: 'token', label: 'Access token', type: 'password', help: 'Only for a protected topic.' },
    ],
    // Healthchecks' form stores its fields as JSON with sorted keys; a blank priority is its default, 3.
    toValue: (v) =>
      JSON.stringify({
        priority: priorityOf(v.priority),
        priority_up: priorityOf(v.priority_up),
        token: (v.token ?? '').trim(),
        topic: (v.topic ?? '').trim(),
        url: (v.url ?? '').trim() || 'https://ntfy.sh',
      }),
    fromTarget: (target) => jsonFields(target, { url: 'url', topic: 'topic', priority: 'priority', priority_up: 'priority_up', token: 'token' }),
  },
  PUSHOVER: {
    label: 'Pushover',
    help: 'A Pushover notification to a user or group (needs the operator’s PUSHOVER_API_TOKEN).',
    fields: [
      { key: 'user_key', label: 'User key', type: 'text', placeholder: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG' },
      { key: 'prio', label: 'Priority when down', type: 'text', options: PUSHOVER_PRIORITIES },
      { key: 'prio_up', label: 'Priority when up', type: 'text', options: PUSHOVER_PRIORITIES },
    ],
    // Healthchecks stores "user_key|prio|prio_up"; a blank priority is its default, 0.
    toValue: (v) => [(v.user_key ?? '').trim(), (v.prio ?? '').trim() || '0', (v.prio_up ?? '').trim() || '0'].join('|'),
    fromTarget: (target) => {
      const [user_key = '', prio = '', prio_up = prio] = target.split('|');
      return { user_key, prio, prio_up };
    },
  },
  PUSHBULLET: {
    label: 'Pushbullet',
    help: 'A Pushbullet note to the account of an access token.',
    fields: [{ key: 'value', label: 'Access token', type: 'password', help: 'From Pushbullet’s Settings → Account → Create Access Token.' }],
  },
  GOTIFY: {
    label: 'Gotify',
    help: 'A message to an application on your Gotify server.',
    fields: [
      { key: 'url', label: 'Server', type: 'url', placeholder: 'https://gotify.example.org' },
      { key: 'token', label: 'Application token', type: 'password' },
      { key: 'priority', label: 'Priority when down', type: 'text', placeholder: '5', help: '9 high, 5 normal, 2 low; 0 sends nothing when a check goes down.' },
      { key: 'priority_up', label: 'Priority when up', type: 'text', placeholder: '5', help: 'The same for a check that comes back up.' },
    ],
    // Healthchecks' form stores its fields as JSON with sorted keys; a blank priority is its default, 5.
    toValue: (v) =>
      JSON.stringify({
        priority: priorityOf(v.priority, 5),
        priority_up: priorityOf(v.priority_up, 5),
        token: (v.token ?? '').trim(),
        url: (v.url ?? '').trim(),
      }),
    fromTarget: (target) => jsonFields(target, { url: 'url', token: 'token', priority: 'priority', priority_up: 'priority_up' }),
  },
  MSTEAMS: {
    label: 'Microsoft Teams',
    help: 'A card in a Microsoft Teams channel, through a Workflows webhook.',
    fields: [incomingHook('Teams Workflows', 'https://….logic.azure.com/workflows/…')],
  },
  GOOGLECHAT: {
    label: 'Google Chat',
    help: 'A card in a Google Chat space.',
    fields: [incomingHook('Google Chat', 'https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…')],
  },
  ZULIP: {
    label: 'Zulip',
    help: 'A Zulip message to a stream and topic, or a private message, sent by a bot.',
    fields: [
      { key: 'bot_email', label: 'Bot email', type: 'email', placeholder: 'alerts-bot@example.zulipchat.com' },
      { key: 'api_key', label: 'Bot API key', type: 'password' },
      { key: 'site', label: 'Zulip site', type: 'url', placeholder: 'https://example.zulipchat.com' },
      { key: 'mtype', label: 'Send to', type: 'text', options: [{ value: 'stream', label: 'A stream and topic' }, { value: 'private', label: 'A private message' }] },
      { key: 'to', label: 'Stream name or recipient', type: 'text', placeholder: 'alerts' },
      { key: 'topic', label: 'Topic', type: 'text', help: 'Blank: each message gets its own ("backup is DOWN").' },
    ],
    // Healthchecks' form stores its fields as JSON with sorted keys.
    toValue: (v) =>
      JSON.stringify({
        api_key: (v.api_key ?? '').trim(),
        bot_email: (v.bot_email ?? '').trim(),
        mtype: (v.mtype ?? '').trim() || 'stream',
        site: (v.site ?? '').trim(),
        to: (v.to ?? '').trim(),
        topic: (v.topic ?? '').trim(),
      }),
    fromTarget: (target) => jsonFields(target, { bot_email: 'bot_email', api_key: 'api_key', site: 'site', mtype: 'mtype', to: 'to', topic: 'topic' }),
  },
  TELEGRAM: {
    label: 'Telegram',
    help: 'A Telegram message from the operator’s bot (needs TELEGRAM_TOKEN) to a chat: send /start to the bot in that chat (or topic), then paste the value it answers.',
    fields: [
      { key: 'id', label: 'Chat id', type: 'text', placeholder: '-1001234567890', help: 'The value the bot answers to /start, or just the chat’s id (negative for groups).' },
      { key: 'thread_id', label: 'Topic (thread) id', type: 'text', help: 'Only for a topic of a forum group.' },
    ],
    // Healthchecks' TelegramConf: {"id": …, "thread_id": …}; a chat id that is not a number is sent as typed for the server to refuse.
    toValue: (v) => {
      // The bot's answer to /start is the whole value (id, type, name, thread_id): kept as pasted, the server checks it.
      if ((v.id ?? '').trim().startsWith('{')) return (v.id ?? '').trim();
      const num = (t: string | undefined) => (/^-?\d+$/.test((t ?? '').trim()) ? Number((t ?? '').trim()) : (t ?? '').trim());
      const thread = (v.thread_id ?? '').trim();
      return JSON.stringify(thread ? { id: num(v.id), thread_id: num(thread) } : { id: num(v.id) });
    },
    fromTarget: (target) => jsonFields(target, { id: 'id', thread_id: 'thread_id' }),
  },
  MATRIX: {
    label: 'Matrix',
    help: 'A message in a Matrix room from the operator’s bot account (needs MATRIX_HOMESERVER, MATRIX_USER_ID and MATRIX_ACCESS_TOKEN).',
    fields: [{ key: 'value', label: 'Room id or alias', type: 'text', placeholder: '!abc123:example.org or #ops:example.org', help: 'Invite the server’s bot to the room first: it joins on the first alert.' }],
  },
  SIGNAL: {
    label: 'Signal',
    help: 'A Signal message through the operator’s signal-cli (needs SIGNAL_CLI_SOCKET).',
    fields: [{ key: 'recipient', label: 'Phone number or username', type: 'text', placeholder: '+15551234567 or name.42', help: 'A phone number with + and the country code, or a Signal username.' }],
    // Healthchecks' PhoneConf; it strips spaces and dashes as its form does. Which statuses are
    // sent is the channel's own down/up choice, so the value sends both.
    toValue: (v) => JSON.stringify({ value: (v.recipient ?? '').replace(/[\s-]/g, ''), up: true, down: true }),
    fromTarget: (target) => (target.trimStart().startsWith('{') ? jsonFields(target, { recipient: 'value' }) : { recipient: target }),
  },
  APPRISE: {
    label: 'Apprise',
    help: 'A notification to any service Apprise knows, through the operator’s Apprise API server (needs APPRISE_ENABLED).',
    fields: [{ key: 'value', label: 'Apprise URL(s)', type: 'text', placeholder: 'json://example.org/hook', help: 'One or more Apprise URLs, separated by spaces or commas (see appriseit.com/services).' }],
  },
  SHELL: {
    label: 'Shell command',
    help: 'A command run on the server (needs SHELL_ENABLED): $NAME, $STATUS, $NOW, $CODE, $TAGS and $TAG1… are replaced, and set in its environment.',
    fields: [
      { key: 'cmd_down', label: 'Command when down', type: 'text', placeholder: 'logger "$NAME is $STATUS"', help: 'Blank: nothing runs when a check goes down.' },
      { key: 'cmd_up', label: 'Command when up', type: 'text', help: 'Blank: nothing runs when a check comes back up.' },
    ],
    // Healthchecks' ShellConf, keys sorted as its form stores them.
    toValue: (v) => JSON.stringify({ cmd_down: v.cmd_down ?? '', cmd_up: v.cmd_up ?? '' }),
    fromTarget: (target) => jsonFields(target, { cmd_down: 'cmd_down', cmd_up: 'cmd_up' }),
  },
  GROUP: {
    label: 'Group',
    help: 'Sends each alert to several of this project’s channels at once, each member once.',
    // For now the members are typed as ids; a list of the project's channels to tick would be kinder.
    fields: [{ key: 'value', label: 'Member channel ids', type: 'text', placeholder: '3f1c…, 9a2b…', help: 'The ids of this project’s channels (not groups), separated by commas.' }],
  },
  GITHUB: {
    label: 'GitHub',
    help: 'An issue in a GitHub repository when a check goes down, opened by the operator’s GitHub App (needs GITHUB_CLIENT_ID and GITHUB_PRIVATE_KEY).',
    fields: [
      { key: 'installation_id', label: 'App installation id', type: 'text', placeholder: '12345678', help: 'From the app’s installation page on GitHub (…/settings/installations/<id>).' },
      { key: 'repo', label: 'Repository', type: 'text', placeholder: 'owner/name' },
      { key: 'labels', label: 'Labels', type: 'text', placeholder: 'monitoring, urgent', help: 'Separated by commas; blank: none.' },
    ],
    // Healthchecks' GitHubConf; an id that is not a number is sent as typed for the server to refuse.
    toValue: (v) => {
      const id = (v.installation_id ?? '').trim();
      const labels = (v.labels ?? '').split(',').map((l) => l.trim()).filter(Boolean);
      return JSON.stringify({ installation_id: /^\d+$/.test(id) ? Number(id) : id, repo: (v.repo ?? '').trim(), labels });
    },
    fromTarget: (target) => {
      const fields = jsonFields(target, { installation_id: 'installation_id', repo: 'repo' });
      let labels: unknown = [];
      try {
        labels = (JSON.parse(target) as { labels?: unknown }).labels;
      } catch {
        // Shown blank, as jsonFields does.
      }
      return { ...fields, labels: Array.isArray(labels) ? labels.join(', ') : '' };
    },
  },
  TRELLO: {
    label: 'Trello',
    help: 'A card on a Trello list when a check goes down (needs the operator’s TRELLO_APP_KEY).',
    fields: [
      { key: 'token', label: 'Trello token', type: 'password', help: 'A token authorizing this server’s Trello app for your account.' },
      { key: 'board_name', label: 'Board name', type: 'text' },
      { key: 'list_name', label: 'List name', type: 'text' },
      { key: 'list_id', label: 'List id', type: 'text', placeholder: '5f0c1a2b3c4d5e6f7a8b9c0d' },
    ],
    // Healthchecks' TrelloConf, keys sorted as its form stores them.
    toValue: (v) =>
      JSON.stringify({ board_name: (v.board_name ?? '').trim(), list_id: (v.list_id ?? '').trim(), list_name: (v.list_name ?? '').trim(), token: (v.token ?? '').trim() }),
    fromTarget: (target) => jsonFields(target, { token: 'token', board_name: 'board_name', list_name: 'list_name', list_id: 'list_id' }),
  },
};

/** A typed priority as a number (the server words the refusal of a wrong one); blank: 3 (ntfy's default) unless given. */
function priorityOf(typed: string | undefined, blank = 3): number | string {
  const t = (typed ?? '').trim();
  if (!t) return blank;
  return /^\d+$/.test(t) ? Number(t) : t;
}

/** The form's fields from a stored JSON value (`fields`: form key → JSON key); unreadable: all blank. */
function jsonFields(target: string, fields: Record<string, string>): Record<string, string> {
  let doc: Record<string, unknown> = {};
  try {
    doc = JSON.parse(target) as Record<string, unknown>;
  } catch {
    // Shown blank: the server's value stays until the form is saved.
  }
  return Object.fromEntries(Object.entries(fields).map(([key, json]) => [key, doc?.[json] === undefined || doc?.[json] === null ? '' : String(doc[json])]));
}

/** In the table's order (the form's choice lists them so). */
export const KIND_ORDER = Object.keys(KINDS) as ChannelKind[];

/** A kind's entry; a kind this page predates (a newer server) gets a plain one-value form. */
export const kindOf = (kind: ChannelKind): KindDescription =>
  KINDS[kind] ?? { label: String(kind).toLowerCase(), help: '', fields: [{ key: 'value', label: 'Value', type: 'text' }] };

/** The value to send for a kind's fields. */
export function valueOf(description: KindDescription, values: Record<string, string>): string {
  if (description.toValue) return description.toValue(values);
  return values[description.fields[0]?.key ?? 'value'] ?? '';
}

/** The form's fields for a stored channel's target. */
export function fieldsOf(description: KindDescription, target: string | null): Record<string, string> {
  if (target === null) return {};
  if (description.fromTarget) return description.fromTarget(target);
  return { [description.fields[0]?.key ?? 'value']: target };
}

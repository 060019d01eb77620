// One channel: where it sends, which statuses, its last error and recent notifications; for those
// who may change it, the toggles (down, up, enabled, each saved at once), a test, the edit form
// and delete (confirmed). The outcome of a test stays on the card until the next one.
import { useRef, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { messageOf, query } from '../lib/graphql.ts';
import { when } from '../lib/format.ts';
import { ChannelForm } from './ChannelForm.tsx';
import { kindOf } from './kinds.ts';
import {
  INTEGRATION_DELETE,
  INTEGRATION_SEND_VERIFICATION,
  INTEGRATION_TEST,
  INTEGRATION_UPDATE,
  type Channel,
  type ChannelNotification,
  type ChannelPatch,
  type TestResult,
  type WebhookSide,
} from './operations.ts';

/** How the list and the messages name a channel: its name, else where it sends. */
export const channelTitle = (c: Channel) => c.name || c.target || c.webhook?.down.url || c.webhook?.up.url || kindOf(c.kind).label;

const REASONS: Record<ChannelNotification['reason'], string> = { FLIP: 'alert', NAG: 'reminder', TEST: 'test' };
const STATES: Record<ChannelNotification['state'], string> = { SENT: 'sent', FAILED: 'failed', PENDING: 'pending' };

function testOutcome(r: TestResult): string {
  if (r.ok) return `Test delivered in ${r.durationMs} ms.`;
  if (r.state === 'PENDING') return `Test queued: ${r.error || 'not delivered yet'}`;
  return `Test failed: ${r.error}`;
}

type Toggle = 'notifyDown' | 'notifyUp' | 'enabled';

interface Props {
  channel: Channel;
  /** Toggles, test, edit and delete; without, the card only shows. */
  writable: boolean;
  onChanged(channel: Channel): void;
  onDeleted(channel: Channel): void;
  /** After a test: its notification (and last error) are read again. */
  onTested(): void;
}

export function ChannelCard({ channel, writable, onChanged, onDeleted, onTested }: Props) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [tested, setTested] = useState<TestResult | null>(null);
  const [testing, setTesting] = useState(false);
  // A toggle's value while its change is on the way: shown at once, so a re-render before the
  // answer (the status line clearing) cannot flip the box back to the stored value.
  const [pending, setPending] = useState<Partial<Record<Toggle, boolean>>>({});
  const editButton = useRef<HTMLButtonElement>(null);
  const description = kindOf(channel.kind);
  const title = channelTitle(channel);
  const headingId = `channel-${channel.uuid}`;

  const update = async (patch: ChannelPatch, done: string): Promise<boolean> => {
    setError(null);
    setStatus('');
    try {
      onChanged((await query(INTEGRATION_UPDATE, { id: channel.uuid, ...patch })).updateChannel);
      setStatus(done);
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    }
  };
  const toggle = (field: Toggle, label: string) => async (e: Event) => {
    const on = (e.currentTarget as HTMLInputElement).checked;
    setPending((p) => ({ ...p, [field]: on }));
    // Saved, the stored channel now says `on`; refused (e.g. both alerts off), the box goes back
    // to what is stored. Either way the pending value has done its work.
    await update(field === 'enabled' ? { disabled: !on } : { [field]: on }, `${label} ${on ? 'on' : 'off'}.`);
    setPending(({ [field]: _, ...rest }) => rest);
  };
  const test = async () => {
    if (testing) return;
    setTesting(true);
    setError(null);
    setTested(null);
    setStatus('Sending a test…');
    try {
      const result = (await query(INTEGRATION_TEST, { id: channel.uuid })).testChannel;
      setTested(result);
      setStatus(testOutcome(result));
      onTested();
    } catch (err) {
      setStatus('');
      setError(messageOf(err));
    } finally {
      setTesting(false);
    }
  };
  const resend = async () => {
    setError(null);
    setStatus('');
    try {
      await query(INTEGRATION_SEND_VERIFICATION, { id: channel.uuid });
      setStatus(`Confirmation link sent to ${channel.target}.`);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const remove = async () => {
    setError(null);
    try {
      await query(INTEGRATION_DELETE, { id: channel.uuid });
      onDeleted(channel);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  if (editing) {
    return (
      <ChannelForm
        channel={channel}
        onSaved={(saved) => {
          onChanged(saved);
          setEditing(false);
          setStatus('Changes saved.');
          setTimeout(() => editButton.current?.focus());
        }}
        onCancel={() => {
          setEditing(false);
          setTimeout(() => editButton.current?.focus());
        }}
      />
    );
  }

  const canSend = (s: WebhookSide | undefined) => !channel.webhook || (s?.url ?? '') !== '';
  const box = (field: Toggle, label: string, checked: boolean, possible = true) => (
    <label class={possible ? undefined : 'hint'}>
      <input type="checkbox" checked={pending[field] ?? checked} disabled={!possible} onChange={(e) => void toggle(field, label)(e)} /> {label}
      {!possible && <span class="visually-hidden"> (its request has no URL)</span>}
    </label>
  );

  return (
    <article class={`card channel${channel.disabled ? ' channel-disabled' : ''}`} aria-labelledby={headingId} data-channel={channel.uuid}>
      <header>
        <h2 id={headingId}>{title}</h2>
        <span class="tag" data-kind={channel.kind}>{description.label}</span>
        {channel.disabled && <span class="tag">disabled</span>}
      </header>
      <dl class="facts">
        {channel.webhook ? (
          <>
            <dt>When down</dt>
            <dd class="target">{channel.webhook.down.url ? `${channel.webhook.down.method} ${channel.webhook.down.url}` : 'nothing'}</dd>
            <dt>When up</dt>
            <dd class="target">{channel.webhook.up.url ? `${channel.webhook.up.method} ${channel.webhook.up.url}` : 'nothing'}</dd>
          </>
        ) : (
          <>
            <dt>Sends to</dt>
            <dd class="target">{channel.target}</dd>
          </>
        )}
        {!writable && (
          <>
            <dt>Alerts</dt>
            <dd>{[channel.notifyDown && 'down', channel.notifyUp && 'up'].filter(Boolean).join(' and ') || 'none'}</dd>
          </>
        )}
        {!channel.emailVerified && (
          <>
            <dt>Confirmation</dt>
            <dd class="waiting">Waiting for {channel.target} to confirm: alerts go there once the link we mailed is opened.</dd>
          </>
        )}
        <dt>Last error</dt>
        <dd class={channel.lastError ? 'error last-error' : 'last-error'}>{channel.lastError || 'none'}</dd>
      </dl>
      {writable && (
        <fieldset class="choice toggles" aria-label={`Alerts to ${title}`}>
          {box('notifyDown', 'Down alerts', channel.notifyDown, canSend(channel.webhook?.down))}
          {box('notifyUp', 'Up alerts', channel.notifyUp, canSend(channel.webhook?.up))}
          {box('enabled', 'Enabled', !channel.disabled)}
        </fieldset>
      )}
      <p class={tested && !tested.ok ? 'error test-result' : 'notice test-result'} role="status">{status}</p>
      {error && <p class="error" role="alert">{error}</p>}
      {writable && (
        <div class="buttons">
          <button type="button" aria-label={`Test ${title}`} aria-disabled={testing} onClick={() => void test()}>{testing ? 'Testing…' : 'Test'}</button>
          {!channel.emailVerified && (
            <button type="button" class="secondary" aria-label={`Send the confirmation link to ${title} again`} onClick={() => void resend()}>Send the link again</button>
          )}
          <button type="button" class="secondary" ref={editButton} aria-label={`Edit ${title}`} onClick={() => { setStatus(''); setError(null); setEditing(true); }}>Edit</button>
          <ConfirmButton label="Delete" name={`Delete ${title}`} question="Checks stop notifying it. Delete this integration?" onConfirm={remove} />
        </div>
      )}
      {channel.notifications.length > 0 && (
        <details class="notifications">
          <summary>Recent notifications</summary>
          <ul>
            {channel.notifications.map((n) => (
              <li key={n.uuid} data-state={n.state}>
                <span>{when(n.eventAt)}</span> · <span>{REASONS[n.reason]}, {n.status.toLowerCase()}</span> ·{' '}
                <span class={n.state === 'FAILED' ? 'error' : undefined}>{STATES[n.state]}</span>
                {n.durationMs !== null && n.durationMs !== undefined && <span class="hint"> in {n.durationMs} ms</span>}
                {n.error && <span class="error">: {n.error}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </article>
  );
}

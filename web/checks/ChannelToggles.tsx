// Which of the project's channels alert for one check: a checkbox each, saved as it is toggled
// (updateCheck's `channels`: the UUIDs, comma-separated; "" for none).
import { useState } from 'preact/hooks';
import { messageOf, query } from '../lib/graphql.ts';
import type { Session } from '../dashboard/session.ts';
import { CHECK_SET_CHANNELS, type ProjectChannel } from './operations.ts';

export const channelLabel = (c: Pick<ProjectChannel, 'name' | 'kind' | 'target'>) => c.name || `${c.kind.toLowerCase()} ${c.target ?? ''}`.trim();

interface Props {
  session: Session;
  check: { uuid: string | null; name: string; channels?: Array<{ uuid: string }> | null };
  channels: ProjectChannel[];
  /** The channels as the server stored them. */
  onChanged(channels: Array<{ uuid: string }>): void;
  /** Read-only: the boxes show, disabled. */
  readOnly?: boolean;
}

export function ChannelToggles({ session, check, channels, onChanged, readOnly = false }: Props) {
  // While a change is saved the boxes show it (a box that flipped back until the answer came
  // would look refused); the server's answer, or its refusal, then replaces it.
  const [saving, setSaving] = useState<Set<string> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const on = saving ?? new Set((check.channels ?? []).map((c) => c.uuid));
  const busy = saving !== null;
  const toggle = async (uuid: string, checked: boolean) => {
    if (!check.uuid || busy) return;
    const next = new Set(on);
    if (checked) next.add(uuid);
    else next.delete(uuid);
    setSaving(next);
    setError(null);
    try {
      const saved = await query(CHECK_SET_CHANNELS, { id: check.uuid, channels: [...next].join(',') }, session.key);
      onChanged(saved.updateCheck.channels ?? []);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(null);
    }
  };
  return (
    <fieldset class="channel-toggles" aria-busy={busy}>
      <legend>Channels that alert for {check.name || 'this check'}</legend>
      {channels.map((c) => (
        <label key={c.uuid} class="check-option">
          <input type="checkbox" checked={on.has(c.uuid)} disabled={busy || readOnly || !check.uuid} data-channel={c.uuid} onChange={(e) => void toggle(c.uuid, (e.currentTarget as HTMLInputElement).checked)} />{' '}
          {channelLabel(c)} {c.disabled && <span class="hint">(disabled)</span>}
        </label>
      ))}
      {error && <p class="error" role="alert">{error}</p>}
    </fieldset>
  );
}

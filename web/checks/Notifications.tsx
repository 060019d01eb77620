// The alerts sent about the check, newest first, and how each delivery went (updated live as
// attempts finish: notificationOutcomes).
import { duration, Time } from '../lib/format.ts';
import { channelLabel } from './ChannelToggles.tsx';
import type { SentNotification } from './operations.ts';

const OUTCOME = { SENT: 'sent', PENDING: 'pending', FAILED: 'failed' } as const;
const REASON = { FLIP: 'status change', NAG: 'reminder', TEST: 'test' } as const;

export function Notifications({ notifications }: { notifications: SentNotification[] }) {
  if (!notifications.length) return <p class="hint">None sent yet: alerts go out when the check goes down or comes back up.</p>;
  return (
    <table class="notifications">
      <thead><tr><th>When</th><th>Channel</th><th>About</th><th>Outcome</th></tr></thead>
      <tbody>
        {notifications.map((n) => (
          <tr key={n.uuid} data-notification={n.state}>
            <td data-label="When"><Time iso={n.eventAt} /></td>
            <td data-label="Channel">{channelLabel(n.channel)}</td>
            <td data-label="About">
              <span class={`status status-${n.status.toLowerCase()}`}>{n.status.toLowerCase()}</span> <span class="hint">{REASON[n.reason]}</span>
            </td>
            <td data-label="Outcome">
              <strong class={`outcome outcome-${n.state.toLowerCase()}`}>{OUTCOME[n.state]}</strong>
              {n.state === 'SENT' && n.sentAt && <> <Time iso={n.sentAt} /></>}
              {n.attempts > 1 && <span class="hint"> after {n.attempts} attempts</span>}
              {n.durationMs !== null && <span class="hint"> ({duration(n.durationMs / 1000)})</span>}
              {n.error && <span class="error block">{n.error}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

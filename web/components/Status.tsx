import type { CheckStatus } from '../../src/generated/graphql/graphql.ts';

/** What each status is called on screen ("late" is Healthchecks' word for GRACE). */
export const STATUS_LABELS: Record<CheckStatus, string> = { UP: 'up', DOWN: 'down', GRACE: 'late', NEW: 'new', PAUSED: 'paused' };

export function Status({ status }: { status: CheckStatus }) {
  return <span class={`status status-${status.toLowerCase()}`} data-status={status}>{STATUS_LABELS[status]}</span>;
}

export function LiveBadge({ state }: { state: string }) {
  const label = { websocket: 'live', sse: 'live (SSE)', connecting: 'connecting…', offline: 'reconnecting…', forbidden: 'key refused' }[state] ?? state;
  return <span class={`live live-${state}`} data-live={state} title="Changes are pushed by the server">{label}</span>;
}

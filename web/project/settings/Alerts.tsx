// Repeat alerts (the nag period: while any check is down, its channels are reminded every so
// often; setNagPeriod, 1 minute to 30 days or off) and how many pings each check lists (the
// ping log limit, 1 to 1000). Anyone who may change checks sets repeat alerts; the owner and
// managers set the ping log limit (the server's rules); the others read them.
import { useState } from 'preact/hooks';
import { query } from '../../lib/graphql.ts';
import { seconds } from '../../lib/format.ts';
import { PROJECT_SETTINGS_NAG_PERIOD, PROJECT_SETTINGS_PING_LOG_LIMIT } from '../operations.ts';
import { useChange } from './change.tsx';

const UNITS = [
  { name: 'days', size: 86400 },
  { name: 'hours', size: 3600 },
  { name: 'minutes', size: 60 },
  { name: 'seconds', size: 1 },
] as const;

/** The largest unit the period is a whole number of (a day, not 1440 minutes). */
function inUnits(period: number | null): { amount: string; unit: number } {
  if (period === null) return { amount: '1', unit: 86400 };
  const unit = UNITS.find((u) => period % u.size === 0)!;
  return { amount: String(period / unit.size), unit: unit.size };
}

interface NagProps {
  project: string;
  nagPeriod: number | null;
  mayChange: boolean;
  onChanged(seconds: number | null): void;
  onRefused(): void;
}

export function NagPeriodForm({ project, nagPeriod, mayChange, onChanged, onRefused }: NagProps) {
  const start = inUnits(nagPeriod);
  const [on, setOn] = useState(nagPeriod !== null);
  const [amount, setAmount] = useState(start.amount);
  const [unit, setUnit] = useState(start.unit);
  const { busy, run, messages } = useChange(onRefused);
  const current = nagPeriod === null ? 'Off' : `Every ${seconds(nagPeriod)}`;

  if (!mayChange) {
    return (
      <dl class="card facts">
        <dt>Repeat alerts</dt>
        <dd data-setting="nag-period">{current}</dd>
      </dl>
    );
  }
  const submit = (e: Event) => {
    e.preventDefault();
    const period = on ? Math.round(Number(amount) * unit) : null;
    void run(async () => {
      await query(PROJECT_SETTINGS_NAG_PERIOD, { project, seconds: period });
      onChanged(period);
    }, period === null ? 'Repeat alerts are off.' : `Repeat alerts every ${seconds(period)}.`);
  };
  return (
    <form class="card settings-form" aria-label="Repeat alerts" onSubmit={submit}>
      <p class="hint">While a check is down, its channels are reminded again every so often, until it is up again. Now: <span data-setting="nag-period">{current}</span>.</p>
      <label class="check">
        <input type="checkbox" checked={on} onChange={(e) => setOn((e.currentTarget as HTMLInputElement).checked)} />
        Repeat alerts while a check is down
      </label>
      <div class="inline-fields">
        <label for="nag-amount">Every</label>
        <input id="nag-amount" type="number" step="any" min="0" inputMode="decimal" value={amount} disabled={!on} required={on} onInput={(e) => setAmount((e.currentTarget as HTMLInputElement).value)} />
        <label for="nag-unit" class="visually-hidden">Unit</label>
        <select id="nag-unit" value={unit} disabled={!on} onChange={(e) => setUnit(Number((e.currentTarget as HTMLSelectElement).value))}>
          {UNITS.map((u) => <option key={u.size} value={u.size}>{u.name}</option>)}
        </select>
      </div>
      <span class="hint">From 1 minute to 30 days.</span>
      <div class="form-actions">
        <button type="submit" disabled={busy}>Save repeat alerts</button>
      </div>
      {messages}
    </form>
  );
}

interface LimitProps {
  project: string;
  pingLogLimit: number;
  mayChange: boolean;
  onChanged(limit: number): void;
  onRefused(): void;
}

export function PingLogLimitForm({ project, pingLogLimit, mayChange, onChanged, onRefused }: LimitProps) {
  const [limit, setLimit] = useState(String(pingLogLimit));
  const { busy, run, messages } = useChange(onRefused);
  if (!mayChange) {
    return (
      <dl class="card facts">
        <dt>Pings listed per check</dt>
        <dd data-setting="ping-log-limit">{pingLogLimit}</dd>
      </dl>
    );
  }
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const { setPingLogLimit } = await query(PROJECT_SETTINGS_PING_LOG_LIMIT, { project, limit: Number(limit) });
      setLimit(String(setPingLogLimit.pingLogLimit));
      onChanged(setPingLogLimit.pingLogLimit);
    }, 'The ping log limit was saved.');
  };
  return (
    <form class="card settings-form" aria-label="Ping log" onSubmit={submit}>
      <p class="hint">How many of each check’s newest pings the API lists. Now: <span data-setting="ping-log-limit">{pingLogLimit}</span>.</p>
      <label for="ping-log-limit">Pings listed per check</label>
      <input id="ping-log-limit" type="number" step="1" inputMode="numeric" value={limit} required aria-describedby="ping-log-limit-hint" onInput={(e) => setLimit((e.currentTarget as HTMLInputElement).value)} />
      <span id="ping-log-limit-hint" class="hint">From 1 to 1000.</span>
      <div class="form-actions">
        <button type="submit" disabled={busy}>Save ping log limit</button>
      </div>
      {messages}
    </form>
  );
}

// A check's schedule: a simple period and grace time, or a cron or systemd OnCalendar expression
// in a time zone with its grace time. For those, the server's reading of the expression
// (schedulePreview: the words for a cron one, the next five runs, or the error createCheck would
// give) follows the typing, a moment after it pauses.
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { messageOf, query } from '../lib/graphql.ts';
import { Time } from '../lib/format.ts';
import { SCHEDULE_PREVIEW, type SchedulePreview } from './operations.ts';

export interface ScheduleValues {
  kind: 'SIMPLE' | 'CRON' | 'ONCALENDAR';
  /** Seconds. */
  timeout: number;
  /** Seconds. */
  grace: number;
  schedule: string;
  tz: string;
}

const UNITS = [
  { seconds: 86400, label: 'days' },
  { seconds: 3600, label: 'hours' },
  { seconds: 60, label: 'minutes' },
] as const;

/** A length of time as a number and a unit (the largest that divides it evenly). */
export function DurationInput({ label, value, onChange, hint }: { label: string; value: number; onChange(seconds: number): void; hint?: string }) {
  const id = useId();
  const fit = UNITS.find((u) => value % u.seconds === 0) ?? UNITS[2];
  const [unit, setUnit] = useState<number>(fit.seconds);
  const [text, setText] = useState(String(value / fit.seconds));
  // A value set from outside (a reset, the server's answer) replaces what is shown.
  useEffect(() => {
    if (Number(text) * unit !== value) {
      const u = UNITS.find((x) => value % x.seconds === 0) ?? UNITS[2];
      setUnit(u.seconds);
      setText(String(value / u.seconds));
    }
  }, [value]);
  const emit = (nextText: string, nextUnit: number) => {
    const n = Number(nextText);
    if (nextText.trim() !== '' && Number.isFinite(n)) onChange(Math.round(n * nextUnit));
  };
  return (
    <div class="field duration">
      <label for={id}>{label}</label>
      <span class="duration-inputs">
        <input
          id={id}
          type="number"
          min="1"
          step="any"
          inputMode="decimal"
          required
          value={text}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onInput={(e) => {
            const next = (e.currentTarget as HTMLInputElement).value;
            setText(next);
            emit(next, unit);
          }}
        />
        <select
          aria-label={`${label} unit`}
          value={String(unit)}
          onChange={(e) => {
            const next = Number((e.currentTarget as HTMLSelectElement).value);
            setUnit(next);
            emit(text, next);
          }}
        >
          {UNITS.map((u) => <option key={u.seconds} value={String(u.seconds)}>{u.label}</option>)}
        </select>
      </span>
      {hint && <span class="hint" id={`${id}-hint`}>{hint}</span>}
    </div>
  );
}

/** The browser's time zones, with the ones given (the check's, UTC) first when missing. */
function timeZones(extra: string[]): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    // An older browser: the given ones only.
  }
  const missing = extra.filter((z) => z && !zones.includes(z));
  return [...new Set([...missing, ...zones])];
}
export const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

type PreviewState = { schedule: string; tz: string; result: SchedulePreview | null; error: string | null };

/** schedulePreview for what is typed, asked 300 ms after the typing pauses; stale answers dropped. */
function usePreview(schedule: string, tz: string, active: boolean): PreviewState | null {
  const [state, setState] = useState<PreviewState | null>(null);
  useEffect(() => {
    if (!active || !schedule.trim()) return;
    let current = true;
    const timer = setTimeout(() => {
      query(SCHEDULE_PREVIEW, { schedule, tz }).then(
        (data) => current && setState({ schedule, tz, result: data.schedulePreview, error: null }),
        (err: unknown) => current && setState({ schedule, tz, result: null, error: messageOf(err) }),
      );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [schedule, tz, active]);
  return state;
}

export function ScheduleEditor({ values, onChange }: { values: ScheduleValues; onChange(change: Partial<ScheduleValues>): void }) {
  const id = useId();
  const cron = values.kind === 'CRON';
  const onCalendar = values.kind === 'ONCALENDAR';
  const scheduled = cron || onCalendar;
  const preview = usePreview(values.schedule, values.tz, scheduled);
  const stale = !preview || preview.schedule !== values.schedule || preview.tz !== values.tz;
  const zones = useMemo(() => timeZones([values.tz, 'UTC']), [values.tz]);
  const here = viewerZone();
  return (
    <fieldset class="schedule">
      <legend>Schedule</legend>
      <div class="radio-row" role="radiogroup" aria-label="Kind of schedule">
        <label class="check-option">
          <input type="radio" name={`${id}-kind`} checked={!scheduled} onChange={() => onChange({ kind: 'SIMPLE' })} /> Simple: a ping every period
        </label>
        <label class="check-option">
          <input type="radio" name={`${id}-kind`} checked={cron} onChange={() => onChange({ kind: 'CRON', schedule: looksLikeCron(values.schedule) ? values.schedule : '0 * * * *' })} /> Cron: pings at the times a cron expression gives
        </label>
        <label class="check-option">
          <input type="radio" name={`${id}-kind`} checked={onCalendar} onChange={() => onChange({ kind: 'ONCALENDAR', schedule: looksLikeCron(values.schedule) ? '*-*-* 09:00:00' : values.schedule })} /> OnCalendar: systemd timer expressions
        </label>
      </div>
      {scheduled ? (
        <>
          {cron ? (
            <div class="field">
              <label for={`${id}-cron`}>Cron expression</label>
              <input
                id={`${id}-cron`}
                class="mono"
                value={values.schedule}
                spellcheck={false}
                autocomplete="off"
                required
                aria-describedby={`${id}-preview`}
                onInput={(e) => onChange({ schedule: (e.currentTarget as HTMLInputElement).value })}
              />
              <span class="hint">Five fields: minute, hour, day of month, month, day of week (e.g. <code>0 3 * * 1-5</code>).</span>
            </div>
          ) : (
            <div class="field">
              <label for={`${id}-oncalendar`}>OnCalendar expressions</label>
              <textarea
                id={`${id}-oncalendar`}
                class="mono"
                rows={3}
                value={values.schedule}
                spellcheck={false}
                autocomplete="off"
                required
                aria-describedby={`${id}-preview`}
                onInput={(e) => onChange({ schedule: (e.currentTarget as HTMLTextAreaElement).value })}
              />
              <span class="hint">One per line, as in a systemd timer (e.g. <code>Mon..Fri 09:00</code>, <code>daily</code>); the check expects a ping at every time any line names.</span>
            </div>
          )}
          <div class="field">
            <label for={`${id}-tz`}>Time zone</label>
            <select id={`${id}-tz`} value={values.tz} onChange={(e) => onChange({ tz: (e.currentTarget as HTMLSelectElement).value })}>
              {zones.map((z) => <option key={z} value={z}>{z === here ? `${z} (yours)` : z}</option>)}
            </select>
          </div>
          <div id={`${id}-preview`} class="preview" aria-live="polite" data-preview={stale ? 'pending' : preview.result?.ok ? 'ok' : 'error'}>
            {!values.schedule.trim() ? (
              <p class="hint">Type an expression to see when it runs.</p>
            ) : stale ? (
              <p class="hint">Reading the schedule…</p>
            ) : preview.error || !preview.result ? (
              <p class="error">The schedule could not be checked: {preview.error}</p>
            ) : !preview.result.ok ? (
              <p class="error" data-preview-error>{preview.result.error}</p>
            ) : (
              <>
                {preview.result.description && <p class="description">{preview.result.description}</p>}
                <p class="hint">Next runs{values.tz !== here ? ` (your time; ${values.tz} in brackets)` : ''}:</p>
                <ol class="next-times">
                  {preview.result.nextTimes.map((t) => (
                    <li key={t}>
                      <Time iso={t} />
                      {values.tz !== here && <span class="hint"> ({inZone(t, values.tz)})</span>}
                    </li>
                  ))}
                </ol>
              </>
            )}
          </div>
        </>
      ) : (
        <DurationInput label="Period" value={values.timeout} onChange={(timeout) => onChange({ timeout })} hint="How often a ping is expected (1 minute to 365 days)." />
      )}
      <DurationInput label="Grace time" value={values.grace} onChange={(grace) => onChange({ grace })} hint="How late a ping may be before the check is down." />
    </fieldset>
  );
}

/** One line of five fields (Healthchecks' guess_kind): switching kinds keeps a fitting expression. */
const looksLikeCron = (schedule: string) => !schedule.trim().includes('\n') && schedule.trim().split(/\s+/).length === 5;

function inZone(iso: string, tz: string): string {
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: tz, weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
  } catch {
    return tz;
  }
}

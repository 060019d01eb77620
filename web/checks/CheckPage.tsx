// One check (#/checks/<uniqueKey>): its state, live (checkChanged, flips, and for those who may
// read them its pings and notification outcomes); how to ping it; its settings, schedule
// included, for those who may write, with pause, resume and delete; its ping log, status
// changes, downtime per month, notifications and linked campus records. After a reconnection
// everything is read again: what happened meanwhile was not pushed.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Status } from '../components/Status.tsx';
import { ConfirmButton } from '../components/Confirm.tsx';
import { messageOf, query, RequestError } from '../lib/graphql.ts';
import { duration, seconds, Time } from '../lib/format.ts';
import type { Live } from '../lib/live.ts';
import type { Session } from '../dashboard/session.ts';
import {
  CHECK_CHANGED,
  CHECK_DELETE,
  CHECK_DOWNTIMES,
  CHECK_FLIPS,
  CHECK_NOTIFICATION_OUTCOMES,
  CHECK_PAGE,
  CHECK_PAUSE,
  CHECK_PINGS,
  CHECK_RESUME,
  CHECK_UPDATE,
  type CheckFields,
  type Flip,
  type MonthDowntime,
  type Ping,
  type ProjectChannel,
  type SentNotification,
} from './operations.ts';
import { subscribe } from './subscribe.ts';
import { refused } from './use-checks.ts';
import { listAddress } from './list-address.ts';
import { recordLabel } from './records.ts';
import { CheckForm, valuesOf } from './CheckForm.tsx';
import { PingUsage } from './PingUsage.tsx';
import { PingLog } from './PingLog.tsx';
import { Downtimes, Flips } from './CheckHistory.tsx';
import { Notifications } from './Notifications.tsx';
import { LinkedRecords } from './LinkedRecords.tsx';
import { ChannelToggles } from './ChannelToggles.tsx';
import { scheduleText } from './ChecksList.tsx';

const KEEP = 100;

export interface CheckPageProps {
  session: Session;
  live: Live;
  uniqueKey: string;
  /** May read pings, channels, notifications (read-write keys, members who may write). */
  canRead: boolean;
  /** May change the check (not on a wall display). */
  canEdit: boolean;
  onRefused?: () => void;
}

type Check = CheckFields;

/** The pings read plus any pushed meanwhile, newest first, each once. */
const mergePings = (a: Ping[], b: Ping[]) => {
  const seen = new Set<number>();
  return [...a, ...b].filter((p) => !seen.has(p.n) && !!seen.add(p.n)).sort((x, y) => y.n - x.n).slice(0, KEEP);
};

export function CheckPage({ session, live, uniqueKey, canRead, canEdit, onRefused }: CheckPageProps) {
  const [check, setCheck] = useState<Check | null>(null);
  const [flips, setFlips] = useState<Flip[]>([]);
  const [downtimes, setDowntimes] = useState<MonthDowntime[]>([]);
  const [pings, setPings] = useState<Ping[]>([]);
  const [notifications, setNotifications] = useState<SentNotification[]>([]);
  const [channels, setChannels] = useState<ProjectChannel[] | null>(null);
  const [pingLogLimit, setPingLogLimit] = useState(100);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const vars = { project: session.project, uniqueKey };

  // The check and its lists; again after a reconnection.
  useEffect(() => {
    let active = true;
    setError(null);
    query(CHECK_PAGE, { ...vars, writer: canRead }, session.key).then(
      ({ check: read, project }) => {
        if (!active) return;
        const { flips: f, pings: p, notifications: n, downtimes: d, ...rest } = read;
        setCheck(rest);
        setFlips(f.slice(0, KEEP));
        setDowntimes(d);
        setPings((pushed) => mergePings(pushed, p ?? []));
        setNotifications(n ?? []);
        setChannels(project.channels ?? null);
        setPingLogLimit(project.pingLogLimit);
      },
      (err: unknown) => {
        if (!active) return;
        if (err instanceof RequestError && err.code === 'NOT_FOUND' && !/project/i.test(err.message)) return setMissing('This check does not exist (any more).');
        setError(messageOf(err));
        if (refused(err)) onRefused?.();
      },
    );
    return () => {
      active = false;
    };
  }, [uniqueKey, session, canRead, reloads]);

  // Changes to the check and its flips (by project: read-only callers see no UUID to name it by).
  useEffect(() => {
    const stopChanges = subscribe(live, CHECK_CHANGED, { project: session.project, writer: canRead }, (data) => {
      const changed = data?.checkChanged;
      if (changed?.check.uniqueKey !== uniqueKey) return;
      if (changed.change === 'DELETED') return setMissing('This check was deleted.');
      setCheck((c) => (c ? { ...c, ...changed.check } : c));
    });
    const stopFlips = subscribe(live, CHECK_FLIPS, { project: session.project }, (data) => {
      const flip = data?.flips;
      if (flip?.check?.uniqueKey !== uniqueKey) return;
      const { check: _check, ...rest } = flip;
      setFlips((list) => [rest, ...list].slice(0, KEEP));
      void query(CHECK_DOWNTIMES, vars, session.key).then(({ check: c }) => setDowntimes(c.downtimes), () => {});
    });
    let connectedBefore = false;
    const stopState = live.onState((state) => {
      if (state !== 'websocket' && state !== 'sse') return;
      if (connectedBefore) setReloads((n) => n + 1);
      connectedBefore = true;
    });
    return () => {
      stopChanges();
      stopFlips();
      stopState();
    };
  }, [uniqueKey, live, session, canRead]);

  // Pings and notification outcomes, by the check's UUID (which only those who may read them see).
  const uuid = check?.uuid ?? null;
  useEffect(() => {
    if (!canRead || !uuid) return;
    const stopPings = subscribe(live, CHECK_PINGS, { checkId: uuid }, (data) => data && setPings((list) => mergePings([data.pings], list)));
    const stopOutcomes = subscribe(live, CHECK_NOTIFICATION_OUTCOMES, { checkId: uuid }, (data) => {
      const sent = data?.notificationOutcomes.notification;
      if (sent) setNotifications((list) => [sent, ...list.filter((n) => n.uuid !== sent.uuid)].sort((a, b) => b.createdAt.localeCompare(a.createdAt)));
    });
    return () => {
      stopPings();
      stopOutcomes();
    };
  }, [uuid, canRead, live]);

  // Arriving at the page (not each live update) moves the focus to its heading, as a page load
  // would: a screen reader announces where the person is.
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = check !== null;
  useEffect(() => {
    if (loaded) heading.current?.focus({ preventScroll: true });
  }, [loaded, uniqueKey]);

  const back = <p><a href={listAddress()}>← All checks</a></p>;
  if (missing) return <>{back}<p class="error" role="alert" data-missing>{missing}</p></>;
  if (!check) return <>{back}{error ? <p class="error" role="alert">{error}</p> : <p>Loading…</p>}</>;

  const act = async (what: () => Promise<unknown>, done: string) => {
    setError(null);
    setNotice(null);
    try {
      await what();
      setNotice(done);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const writable = canEdit && uuid !== null;
  const paused = check.status === 'PAUSED';

  return (
    <article class="check" data-check={check.name}>
      {back}
      <h1 ref={heading} tabIndex={-1}>{check.name || '(unnamed)'} <Status status={check.status} /></h1>
      {check.desc && <p class="desc">{check.desc}</p>}
      {writable && (
        <p class="actions check-actions">
          <button
            type="button"
            onClick={() =>
              void act(async () => {
                const status = paused ? (await query(CHECK_RESUME, { id: uuid }, session.key)).resumeCheck.status : (await query(CHECK_PAUSE, { id: uuid }, session.key)).pauseCheck.status;
                setCheck((c) => (c ? { ...c, status } : c));
              }, paused ? 'Resumed: the check waits for its next ping.' : 'Paused: no alerts until the next ping (or Resume).')
            }
          >
            {paused ? 'Resume' : 'Pause'}
          </button>{' '}
          <ConfirmButton
            label="Delete"
            name={`Delete ${check.name || 'this check'}`}
            question={`Delete ${check.name || 'this check'} with its pings and history? Its ping URL stops working.`}
            onConfirm={() =>
              act(async () => {
                await query(CHECK_DELETE, { id: uuid }, session.key);
                location.hash = listAddress();
              }, 'Deleted.')
            }
          />
        </p>
      )}
      {error && <p class="error" role="alert">{error}</p>}
      {notice && <p class="notice" role="status">{notice}</p>}

      <dl class="facts">
        <dt>Schedule</dt>
        <dd>{scheduleText(check)}, grace {seconds(check.grace)}</dd>
        <dt>Last ping</dt>
        <dd><Time iso={check.lastPing} never="never" />{check.started && <span class="hint"> (started, running)</span>}</dd>
        <dt>Next ping</dt>
        <dd><Time iso={check.nextPing} /></dd>
        {check.lastDuration !== null && (
          <>
            <dt>Last duration</dt>
            <dd>{duration(check.lastDuration)}</dd>
          </>
        )}
        <dt>Slug</dt>
        <dd>{check.slug ? <code>{check.slug}</code> : '—'}</dd>
        <dt>Tags</dt>
        <dd>{check.tags.length ? check.tags.map((t) => <a class="tag" key={t} href={`#/checks?tag=${encodeURIComponent(t)}`}>{t}</a>) : '—'}</dd>
        <dt>Records</dt>
        <dd class="records">{check.records.length ? check.records.map((r, i) => <span class="tag record" key={i}>{recordLabel(r)}</span>) : '—'}</dd>
        <dt>Pings</dt>
        <dd>{check.nPings}</dd>
        <dt>Created</dt>
        <dd><Time iso={check.createdAt} /></dd>
      </dl>

      {canRead && check.pingUrl && <PingUsage pingUrl={check.pingUrl} pingEmail={check.pingEmail} />}

      {writable && (
        <section aria-labelledby="settings-h">
          <h2 id="settings-h">Settings</h2>
          <CheckForm
            initial={valuesOf(check)}
            savedNotice
            onSave={async (input) => {
              const { updateCheck } = await query(CHECK_UPDATE, { id: uuid, input, writer: canRead }, session.key);
              setCheck((c) => (c ? { ...c, ...updateCheck } : c));
            }}
          />
        </section>
      )}

      {canRead && channels && (
        <section aria-labelledby="channels-h">
          <h2 id="channels-h">Alerts</h2>
          {channels.length ? (
            <ChannelToggles session={session} check={check} channels={channels} readOnly={!writable} onChanged={(saved) => setCheck((c) => (c ? { ...c, channels: saved } : c))} />
          ) : (
            <p class="hint">The project has no channels yet{canEdit ? <>: add one under <a href="#/integrations">Integrations</a></> : ''}.</p>
          )}
        </section>
      )}

      <section aria-labelledby="pings-h">
        <h2 id="pings-h">Pings</h2>
        {canRead ? <PingLog pings={pings} total={check.nPings} limit={pingLogLimit} /> : <p class="hint">{session.key ? 'The ping log is shown to read-write keys only.' : 'The ping log is shown to members who may make changes.'}</p>}
      </section>

      <section aria-labelledby="flips-h">
        <h2 id="flips-h">Status changes</h2>
        <Flips flips={flips} />
        <h3>Downtime by month</h3>
        <Downtimes months={downtimes} />
      </section>

      {canRead && (
        <section aria-labelledby="notifications-h">
          <h2 id="notifications-h">Notifications</h2>
          <Notifications notifications={notifications} />
        </section>
      )}

      <section aria-labelledby="records-h">
        <h2 id="records-h">Campus records</h2>
        <LinkedRecords session={session} uuid={uuid} records={check.records} canEdit={writable} onChanged={(change) => setCheck((c) => (c ? { ...c, ...change } : c))} />
      </section>
    </article>
  );
}

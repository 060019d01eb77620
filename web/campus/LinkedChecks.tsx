// The project's checks linked to a campus record (a `campus:<kind>/<id>` tag), each with its
// status as pushed by the server: pings and status changes arrive through the
// recordChecksChanged subscription, which also reports a check being linked or unlinked (the
// list is then read again). Members who may change checks link and unlink them here.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Status } from '../components/Status.tsx';
import { when } from '../lib/format.ts';
import { query } from '../lib/graphql.ts';
import type { Live } from '../lib/live.ts';
import type { Session } from '../dashboard/session.ts';
import { ErrorText, Notice } from './common.tsx';
import * as Op from './operations.ts';

interface Props {
  kind: Op.CampusKind;
  /** The record's global ID (node(id:)). */
  nodeId: string;
  databaseId: number;
  title: string;
  session: Session;
  live: Live;
  failure: (err: unknown) => string;
}

/** Changes that leave the list as it is: the check's new state replaces its row. */
const IN_PLACE = new Set(['PING', 'STATUS', 'PAUSED', 'RESUMED']);

export function LinkedChecks({ kind, nodeId, databaseId, title, session, live, failure }: Props) {
  const [checks, setChecks] = useState<Op.LinkedCheck[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [candidates, setCandidates] = useState<Array<{ uuid: string | null; name: string }> | null>(null);
  const mayLink = session.role !== 'READONLY' && !!session.project;
  const active = useRef(true);
  useEffect(() => () => void (active.current = false), []);
  // The list as shown, for the subscription's handler (set up once).
  const shown = useRef<Op.LinkedCheck[] | null>(null);
  shown.current = checks;

  const reload = async () => {
    try {
      const { node } = await query(Op.RECORD_CHECKS, { id: nodeId, project: session.project });
      if (!active.current) return;
      setChecks((node && 'checks' in node ? node.checks : null) ?? []);
      setError(null);
    } catch (err) {
      if (active.current) setError(failure(err));
    }
  };

  useEffect(() => {
    void reload();
    const stop = live.subscribe<Op.RecordChecksChangedData>(Op.RECORD_CHECKS_CHANGED, { kind, handle: String(databaseId), project: session.project }, (data, errors) => {
      if (errors.length && active.current) setError(errors[0]!.message);
      if (!data) return;
      const { change, check } = data.recordChecksChanged;
      const known = !!shown.current?.some((c) => c.uniqueKey === check.uniqueKey);
      if (IN_PLACE.has(change) && known) setChecks((list) => list && list.map((c) => (c.uniqueKey === check.uniqueKey ? check : c)));
      // Linked, unlinked, created, deleted or renamed: which checks belong here is read again.
      else void reload();
    });
    let connectedBefore = false;
    const stopState = live.onState((state) => {
      if (state !== 'websocket' && state !== 'sse') return;
      if (connectedBefore) void reload();
      connectedBefore = true;
    });
    return () => {
      stop();
      stopState();
    };
  }, [live, kind, nodeId, databaseId, session.project]);

  // The checks that could be linked (their UUIDs are shown to members who may change checks).
  useEffect(() => {
    if (!mayLink) return;
    query(Op.PROJECT_CHECKS, { project: session.project! }).then(
      ({ project }) => active.current && setCandidates(project.checks.nodes.filter((c) => c.uuid)),
      () => active.current && setCandidates([]),
    );
  }, [mayLink, session.project, checks?.length]);

  const change = async (what: 'link' | 'unlink', uuid: string, name: string) => {
    setError(null);
    setDone(null);
    try {
      await query(what === 'link' ? Op.LINK_CHECK : Op.UNLINK_CHECK, { check: uuid, kind, handle: String(databaseId) });
      setDone(what === 'link' ? `${name} is now linked to ${title}.` : `${name} is no longer linked to ${title}.`);
      await reload();
    } catch (err) {
      setError(failure(err));
    }
  };

  const linked = new Set((checks ?? []).map((c) => c.uniqueKey));
  const linkable = (candidates ?? []).filter((c) => !(checks ?? []).some((l) => l.uuid === c.uuid));
  return (
    <section class="related linked-checks" aria-label="Linked checks">
      <h2>Checks <span class="hint">({checks?.length ?? '…'})</span></h2>
      <p class="hint">Checks of {session.projectName} tagged with this record (<code>campus:{kind.toLowerCase()}/</code> and its ID, handle or code); their status changes here as pings arrive.</p>
      <ErrorText message={error} />
      <Notice message={done} />
      {checks === null ? (
        !error && <p>Loading…</p>
      ) : checks.length === 0 ? (
        <p class="hint">No check of this project is linked to it.</p>
      ) : (
        <table class="records">
          <caption class="visually-hidden">Checks linked to {title}</caption>
          <thead><tr><th scope="col">Check</th><th scope="col">Status</th><th scope="col">Last ping</th>{mayLink && <th scope="col"><span class="visually-hidden">Actions</span></th>}</tr></thead>
          <tbody>
            {checks.map((c) => (
              <tr key={c.uniqueKey} data-check={c.name}>
                <td data-label="Check"><a href={`#/checks/${c.uniqueKey}`}>{c.name || c.uniqueKey}</a></td>
                <td data-label="Status"><Status status={c.status} /></td>
                <td data-label="Last ping">{when(c.lastPing, 'never')}</td>
                {mayLink && <td class="actions">{c.uuid && <button type="button" class="secondary" aria-label={`Unlink ${c.name}`} onClick={() => void change('unlink', c.uuid!, c.name)}>Unlink</button>}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayLink && linkable.length > 0 && (
        <form
          class="campus-add"
          onSubmit={(e) => {
            e.preventDefault();
            const uuid = String(new FormData(e.currentTarget).get('check') ?? '');
            const picked = linkable.find((c) => c.uuid === uuid);
            if (picked && !linked.has(uuid)) void change('link', uuid, picked.name);
          }}
        >
          <div class="field">
            <label for="link-check">Link a check</label>
            <select id="link-check" name="check">
              {linkable.map((c) => <option key={c.uuid} value={c.uuid!}>{c.name || c.uuid}</option>)}
            </select>
          </div>
          <button type="submit">Link check</button>
        </form>
      )}
    </section>
  );
}

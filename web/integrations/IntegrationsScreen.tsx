// The project's integrations (#/integrations): its notification channels, each with its last
// error, a test and its recent notifications; adding, changing and deleting them. Kept current
// by the notificationOutcomes subscription (each delivery attempt pushes its channel as stored
// now) and by the answers to this page's own mutations; no subscription carries channels other
// people add or delete, so those appear on the next visit or reconnection. Read-only members
// see no channels (the server hides them as from read-only keys: their URLs may hold secrets).
import { useEffect, useRef, useState } from 'preact/hooks';
import { mayWrite } from '../dashboard/session.ts';
import { backoff } from '../lib/backoff.ts';
import { messageOf, query, RequestError } from '../lib/graphql.ts';
import type { ScreenProps } from '../lib/screen.ts';
import { ChannelCard, channelTitle } from './ChannelCard.tsx';
import { ChannelForm } from './ChannelForm.tsx';
import { INTEGRATION_CHANNELS, INTEGRATION_OUTCOMES, type Channel, type ChannelKind, type OutcomeData } from './operations.ts';

/** The list with `channel` in its place (or added at the end: the server lists oldest first). */
const put = (list: Channel[] | null, channel: Channel) =>
  list && (list.some((c) => c.uuid === channel.uuid) ? list.map((c) => (c.uuid === channel.uuid ? channel : c)) : [...list, channel]);

export function IntegrationsScreen({ session, live, onRefused }: ScreenProps) {
  const project = session.project!;
  const writable = mayWrite(session);
  const [channels, setChannels] = useState<Channel[] | null>(null);
  // The kinds this server can send (its operator's settings): the only ones the form offers.
  const [offered, setOffered] = useState<ChannelKind[] | undefined>(undefined);
  const [hidden, setHidden] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [adding, setAdding] = useState(false);
  const reloadRef = useRef<() => Promise<void>>(async () => {});
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setChannels(null);
    setHidden(false);
    setError(null);
    let active = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const reload = async () => {
      clearTimeout(retry);
      try {
        const answer = await query(INTEGRATION_CHANNELS, { project });
        const list = answer.project.channels ?? [];
        if (!active) return;
        failures = 0;
        setOffered(answer.channelKinds);
        setChannels(list);
        setError(null);
      } catch (err) {
        if (!active) return;
        // A read-only member is refused the list: no error, the screen says why it is empty.
        if (!writable && err instanceof RequestError && err.code === 'FORBIDDEN') return setHidden(true);
        setError(messageOf(err));
        if (err instanceof RequestError && ['UNAUTHENTICATED', 'NOT_FOUND', 'FORBIDDEN'].includes(err.code ?? '')) return onRefused();
        retry = setTimeout(() => void reload(), backoff(failures++, 10_000));
      }
    };
    reloadRef.current = reload;
    // Outcomes are for those who may see channels; a read-only member's would be refused.
    const stopOutcomes = writable
      ? live.subscribe<OutcomeData>(INTEGRATION_OUTCOMES, { project }, (data) => {
          const channel = data?.notificationOutcomes.notification?.channel;
          if (channel && active) setChannels((list) => put(list, channel));
        })
      : () => {};
    // After a reconnection, read again: outcomes while disconnected were not pushed.
    let connectedBefore = false;
    const stopState = live.onState((state) => {
      if (state !== 'websocket' && state !== 'sse') return;
      if (connectedBefore) void reload();
      connectedBefore = true;
    });
    void reload();
    return () => {
      active = false;
      clearTimeout(retry);
      stopOutcomes();
      stopState();
    };
  }, [project, live, writable]);

  const closeForm = () => {
    setAdding(false);
    setTimeout(() => addButton.current?.focus());
  };

  return (
    <section class="integrations" aria-labelledby="integrations-title">
      <h1 id="integrations-title" ref={heading} tabIndex={-1}>Integrations</h1>
      <p class="hint">Where alerts go when a check goes down or comes back up. Each check chooses its integrations in its settings.</p>
      {writable && !hidden && !adding && (
        <p>
          <button type="button" ref={addButton} onClick={() => { setNotice(''); setAdding(true); }}>Add integration</button>
        </p>
      )}
      {adding && (
        <ChannelForm
          project={project}
          offered={offered}
          onSaved={(channel) => {
            setChannels((list) => put(list, channel));
            setNotice(`Added ${channelTitle(channel)}.`);
            closeForm();
          }}
          onCancel={closeForm}
        />
      )}
      <p class="notice" role="status">{notice}</p>
      {error && <p class="error" role="alert">{error}</p>}
      {hidden ? (
        <p class="card">Read-only members do not see the project's integrations: their addresses and URLs may hold secrets. An owner or manager can give you a regular role.</p>
      ) : channels === null ? (
        error ? null : <p>Loading…</p>
      ) : channels.length === 0 ? (
        <p class="card empty">No integrations yet.{writable ? ' Add one to be told when a check goes down.' : ''}</p>
      ) : (
        <ul class="channels" aria-label="Integrations">
          {channels.map((c) => (
            <li key={c.uuid}>
              <ChannelCard
                channel={c}
                writable={writable}
                onChanged={(changed) => setChannels((list) => put(list, changed))}
                onDeleted={(gone) => {
                  setChannels((list) => list && list.filter((x) => x.uuid !== gone.uuid));
                  setNotice(`Deleted ${channelTitle(gone)}.`);
                  heading.current?.focus();
                }}
                onTested={() => void reloadRef.current()}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// The form that adds a channel (kind chosen here) or changes one (its kind kept), built from the
// kind's entry in kinds.ts. Webhooks also offer Healthchecks' spec: a method, URL, body and
// headers for "down" and for "up". The server validates everything and words the refusal; the
// form shows that message above its fields and keeps what was typed. `noValidate`: the browser's
// own checks (type="email", "url") would stop the request and show a different message.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { WebhookSideInput, WebhookSpecInput } from '../../src/generated/graphql/graphql.ts';
import { messageOf, query } from '../lib/graphql.ts';
import { fieldsOf, KIND_ORDER, kindOf, valueOf } from './kinds.ts';
import { INTEGRATION_CREATE, INTEGRATION_UPDATE, type Channel, type ChannelKind, type WebhookSide } from './operations.ts';

const METHODS = ['GET', 'POST', 'PUT'] as const;

interface SideDraft {
  method: string;
  url: string;
  body: string;
  /** One "Name: value" a line. */
  headers: string;
}

const emptySide = (): SideDraft => ({ method: 'POST', url: '', body: '', headers: '' });
const sideDraft = (side: WebhookSide | undefined): SideDraft =>
  side && side.url ? { method: side.method, url: side.url, body: side.body, headers: side.headers.map((h) => `${h.name}: ${h.value}`).join('\n') } : emptySide();

/** The side to send; nothing when left blank (that status sends nothing). */
function sideInput(which: string, d: SideDraft): WebhookSideInput | null {
  if (!d.url.trim() && !d.body && !d.headers.trim()) return null;
  const headers = d.headers
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter((h) => h.line)
    .map(({ line, n }) => {
      const colon = line.indexOf(':');
      // The lines are this form's own notation; what a header may hold, the server decides.
      if (colon <= 0) throw new Error(`${which}: write each header as "Name: value" (line ${n})`);
      return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
  return { method: d.method, url: d.url.trim(), body: d.body, headers };
}

interface Props {
  /** The project a new channel goes to; left out when changing `channel`. */
  project?: string;
  /** The kinds a new channel may have (the server's `channelKinds`); a stored channel keeps its own. */
  offered?: readonly ChannelKind[];
  channel?: Channel;
  onSaved(channel: Channel): void;
  onCancel(): void;
}

export function ChannelForm({ project, offered = KIND_ORDER, channel, onSaved, onCancel }: Props) {
  const id = useId();
  const choices = KIND_ORDER.filter((k) => offered.includes(k));
  const [kind, setKind] = useState<ChannelKind>(channel?.kind ?? choices[0] ?? KIND_ORDER[0]!);
  const description = kindOf(kind);
  const [name, setName] = useState(channel?.name ?? '');
  const [values, setValues] = useState<Record<string, string>>(() => (channel ? fieldsOf(kindOf(channel.kind), channel.target) : {}));
  // Webhooks: a request per status (the spec) or our JSON document to one URL. New ones start
  // with the spec, as Healthchecks' form does; a stored channel keeps the form it has.
  const [mode, setMode] = useState<'spec' | 'value'>(channel && !channel.webhook ? 'value' : 'spec');
  const [down, setDown] = useState<SideDraft>(() => sideDraft(channel?.webhook?.down));
  const [up, setUp] = useState<SideDraft>(() => sideDraft(channel?.webhook?.up));
  const [notifyDown, setNotifyDown] = useState(channel?.notifyDown ?? true);
  const [notifyUp, setNotifyUp] = useState(channel?.notifyUp ?? true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Opened: focus goes to the first field (the kind of a new one, the name of one being changed).
  const kindField = useRef<HTMLSelectElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => (kindField.current ?? nameField.current)?.focus(), []);

  const spec = description.spec === true && mode === 'spec';
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    let target: { value: string | null; webhook: WebhookSpecInput | null };
    try {
      target = spec ? { value: null, webhook: { down: sideInput('When down', down), up: sideInput('When up', up) } } : { value: valueOf(description, values), webhook: null };
    } catch (err) {
      return setError(messageOf(err));
    }
    setBusy(true);
    try {
      const common = { name, ...target, notifyDown, notifyUp };
      const saved = channel
        ? (await query(INTEGRATION_UPDATE, { id: channel.uuid, ...common })).updateChannel
        : (await query(INTEGRATION_CREATE, { project: project!, kind, ...common })).createChannel;
      onSaved(saved);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };

  const side = (which: 'down' | 'up', draft: SideDraft, set: (d: SideDraft) => void) => {
    const p = `${id}-${which}`;
    const legend = which === 'down' ? 'When a check goes down' : 'When a check comes back up';
    const change = (field: keyof SideDraft) => (e: Event) => set({ ...draft, [field]: (e.currentTarget as HTMLInputElement).value });
    return (
      <fieldset class="webhook-side">
        <legend>{legend}</legend>
        <div class="method-url">
          <span class="field">
            <label for={`${p}-method`}>Method</label>
            <select id={`${p}-method`} value={draft.method} onChange={change('method')}>
              {METHODS.map((m) => <option key={m} value={m}>{m}</option>)}
            </select>
          </span>
          <span class="field grow">
            <label for={`${p}-url`}>URL</label>
            <input id={`${p}-url`} type="url" inputMode="url" spellcheck={false} placeholder="https://example.org/alerts?check=$NAME" value={draft.url} onInput={change('url')} />
          </span>
        </div>
        <label for={`${p}-body`}>Body</label>
        <textarea id={`${p}-body`} rows={3} spellcheck={false} value={draft.body} onInput={change('body')} />
        <label for={`${p}-headers`}>Headers</label>
        <textarea id={`${p}-headers`} rows={2} spellcheck={false} placeholder="Authorization: Bearer …" aria-describedby={`${id}-headers-help`} value={draft.headers} onInput={change('headers')} />
      </fieldset>
    );
  };

  return (
    <form class="card channel-form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      {channel ? <h3 id={`${id}-title`}>Edit {channel.name || kindOf(channel.kind).label}</h3> : <h2 id={`${id}-title`}>New integration</h2>}
      {error && <p class="error" role="alert" id={`${id}-error`}>Not saved: {error}</p>}
      {channel ? (
        <p class="hint">{description.label}. {description.help}</p>
      ) : (
        <>
          <label for={`${id}-kind`}>Kind</label>
          <select
            id={`${id}-kind`}
            ref={kindField}
            value={kind}
            aria-describedby={`${id}-kind-help`}
            onChange={(e) => {
              setKind(e.currentTarget.value as ChannelKind);
              setValues({});
              setError(null);
            }}
          >
            {choices.map((k) => <option key={k} value={k}>{kindOf(k).label}</option>)}
          </select>
          <p class="hint" id={`${id}-kind-help`}>{description.help}</p>
        </>
      )}
      <label for={`${id}-name`}>Name</label>
      <input id={`${id}-name`} ref={nameField} value={name} maxLength={100} aria-describedby={`${id}-name-help`} onInput={(e) => setName(e.currentTarget.value)} />
      <p class="hint" id={`${id}-name-help`}>Optional: how this list and the checks' settings name it.</p>
      {description.spec && (
        <fieldset class="choice">
          <legend>What to send</legend>
          <label><input type="radio" name={`${id}-mode`} checked={mode === 'spec'} onChange={() => setMode('spec')} /> A request of my own for each status</label>
          <label><input type="radio" name={`${id}-mode`} checked={mode === 'value'} onChange={() => setMode('value')} /> A JSON document to one URL</label>
        </fieldset>
      )}
      {spec ? (
        <>
          {side('down', down, setDown)}
          {side('up', up, setUp)}
          <p class="hint" id={`${id}-headers-help`}>
            Headers: one <code>Name: value</code> a line. A status whose URL is empty sends nothing. In URLs, bodies and headers, <code>$NAME</code>, <code>$STATUS</code>,{' '}
            <code>$NOW</code>, <code>$CODE</code>, <code>$TAGS</code> and <code>$JSON</code> stand for the check's values.
          </p>
        </>
      ) : (
        description.fields.map((f) => (
          <div class="field" key={f.key}>
            <label for={`${id}-${f.key}`}>{f.label}</label>
            {f.options ? (
              // A closed choice (Opsgenie's region, a priority): the form offers exactly what the server takes.
              <select
                id={`${id}-${f.key}`}
                aria-describedby={f.help ? `${id}-${f.key}-help` : undefined}
                value={values[f.key] || f.options[0]!.value}
                onChange={(e) => setValues({ ...values, [f.key]: e.currentTarget.value })}
              >
                {f.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
              </select>
            ) : (
              <input
                id={`${id}-${f.key}`}
                type={f.type as 'text'}
                inputMode={f.type === 'url' ? 'url' : f.type === 'tel' ? 'tel' : f.type === 'email' ? 'email' : undefined}
                spellcheck={false}
                autocomplete={f.autocomplete ?? 'off'}
                placeholder={f.placeholder}
                aria-describedby={f.help ? `${id}-${f.key}-help` : undefined}
                value={values[f.key] ?? ''}
                onInput={(e) => setValues({ ...values, [f.key]: e.currentTarget.value })}
              />
            )}
            {f.help && <p class="hint" id={`${id}-${f.key}-help`}>{f.help}</p>}
          </div>
        ))
      )}
      <fieldset class="choice">
        <legend>Notify it when a check</legend>
        <label><input type="checkbox" checked={notifyDown} onChange={(e) => setNotifyDown(e.currentTarget.checked)} /> goes down</label>
        <label><input type="checkbox" checked={notifyUp} onChange={(e) => setNotifyUp(e.currentTarget.checked)} /> comes back up</label>
      </fieldset>
      <div class="buttons">
        <button type="submit" aria-disabled={busy}>{channel ? 'Save changes' : 'Add integration'}</button>
        <button type="button" class="link" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

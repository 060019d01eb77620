// Creating and editing a campus record. The server validates as Slate does and answers a
// refusal with every field's message (extensions.validationErrors, keyed by Slate's field
// names): each is shown beside its field, which is marked invalid, and the first such field
// takes the focus. The browser's own validation is off: Slate's messages are the ones to read.
import { useEffect, useRef, useState } from 'preact/hooks';
import { query, RequestError } from '../lib/graphql.ts';
import { ErrorText, Heading, type CampusProps } from './common.tsx';
import { toInput, type FormField, type KindDef, type RefKind, type Values } from './kinds.ts';
import { atLeast } from './levels.ts';
import * as Op from './operations.ts';
import { departmentOptions, scheduleOptions } from './course-groupings.ts';
import { ContentItemsEditor } from './ContentItems.tsx';

type Props = CampusProps & { def: KindDef; id: number | null };
type Option = { value: string; label: string };

const REF_OPTIONS: Record<RefKind, () => Promise<Option[]>> = {
  Course: async () => (await query(Op.COURSE_OPTIONS)).courses.nodes.map((c) => ({ value: String(c.databaseId), label: `${c.code} · ${c.title}` })),
  Term: async () => (await query(Op.TERM_OPTIONS)).terms.nodes.map((t) => ({ value: String(t.databaseId), label: t.title })),
  Location: async () => (await query(Op.LOCATION_OPTIONS)).locations.nodes.map((l) => ({ value: String(l.databaseId), label: l.title })),
  Group: async () => (await query(Op.GROUP_OPTIONS)).groups.nodes.map((g) => ({ value: String(g.databaseId), label: g.fullPath })),
  Department: departmentOptions,
  Schedule: scheduleOptions,
};

export function RecordForm({ def, id, me, failure }: Props) {
  const editing = id !== null;
  const [initial, setInitial] = useState<Values | null>(editing ? null : {});
  const [title, setTitle] = useState<string | null>(null);
  const [authorId, setAuthorId] = useState<number | null>(null);
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [options, setOptions] = useState<Partial<Record<RefKind, Option[]>>>({});
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (id === null) return;
    def.editable(id).then(
      (record) => {
        if (!record) return setMissing(true);
        setInitial(record.values);
        setValues(record.values);
        setTitle(record.title);
        setAuthorId(record.authorId ?? null);
      },
      (err: unknown) => setFormError(failure(err)),
    );
  }, [def.route, id]);

  // The choices of reference fields (a section's course, term and location; a parent).
  useEffect(() => {
    const refs = [...new Set(def.fields.map((f) => f.ref).filter((r): r is RefKind => !!r))];
    for (const ref of refs) {
      REF_OPTIONS[ref]().then(
        (list) => setOptions((o) => ({ ...o, [ref]: list })),
        () => setOptions((o) => ({ ...o, [ref]: [] })),
      );
    }
  }, [def.route]);

  const allowed = editing ? atLeast(me.level, def.write) || (authorId !== null && authorId === me.personId && atLeast(me.level, def.create)) : atLeast(me.level, def.create);
  const back = editing ? `#/campus/${def.route}/${id}` : `#/campus/${def.route}`;
  const heading = editing ? `Edit ${title ?? `${def.noun} ${id}`}` : `New ${def.noun}`;

  const focusFirstInvalid = (names: string[]) => {
    const first = def.fields.find((f) => names.includes(f.name));
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first.name}"]`)?.focus());
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy || !initial) return;
    setFormError(null);
    const { input, errors: typed } = toInput(def.fields, values, editing ? initial : null);
    if (Object.keys(typed).length) {
      setErrors(typed);
      setFormError('Some fields need a change before saving: see the messages beside them.');
      return focusFirstInvalid(Object.keys(typed));
    }
    if (editing && Object.keys(input).length === 0) {
      location.hash = back;
      return;
    }
    setBusy(true);
    try {
      const saved = editing ? (await def.updateRecord(id, input), id) : await def.createRecord(input);
      location.hash = `#/campus/${def.route}/${saved}?saved=1`;
    } catch (err) {
      setBusy(false);
      const byField = err instanceof RequestError ? (err.extensions.validationErrors as Record<string, string> | undefined) : undefined;
      if (!byField) {
        setErrors({});
        return setFormError(failure(err));
      }
      const next: Record<string, string> = {};
      const elsewhere: string[] = [];
      for (const [slate, message] of Object.entries(byField)) {
        // Slate names a relationship's error by the relationship (`Course`), the field is its ID (`CourseID`).
        const field = def.fields.find((f) => f.slate === slate) ?? def.fields.find((f) => f.slate === `${slate}ID`);
        if (field) next[field.name] = message;
        else elsewhere.push(message);
      }
      setErrors(next);
      setFormError(['The server did not save it: see the messages beside the fields.', ...elsewhere].join(' '));
      focusFirstInvalid(Object.keys(next));
    }
  };

  if (missing) {
    return (
      <section>
        <Heading>Not found</Heading>
        <p>There is no {def.noun} {id}, or it is not one you may see. <a href={`#/campus/${def.route}`}>Back to the {def.plural.toLowerCase()}</a>.</p>
      </section>
    );
  }
  return (
    <section class="campus-form" data-kind={def.kind}>
      <p class="crumbs"><a href={`#/campus/${def.route}`}>{def.plural}</a></p>
      <Heading>{heading}</Heading>
      {editing && !initial ? (
        formError ? <ErrorText message={formError} /> : <p>Loading…</p>
      ) : (
        <>
          {!allowed && <p class="hint" role="note">Your account level ({me.level}) may not be enough to save this; the server will say.</p>}
          <p class="hint">Fields marked * are required.</p>
          <form ref={formRef} class="card record-form" noValidate onSubmit={submit} aria-describedby={formError ? 'record-form-error' : undefined}>
            {def.fields.map((f) => (
              <Field
                key={f.name}
                field={f}
                value={values[f.name] ?? ''}
                error={errors[f.name] ?? null}
                options={f.ref ? options[f.ref] : undefined}
                creating={!editing}
                onChange={(value) => {
                  setValues((v) => ({ ...v, [f.name]: value }));
                  // A changed field's old message no longer describes it.
                  if (errors[f.name]) setErrors(({ [f.name]: _gone, ...rest }) => rest);
                }}
              />
            ))}
            {formError && <p id="record-form-error" class="error" role="alert">{formError}</p>}
            <div class="form-actions">
              <button type="submit" disabled={busy}>{busy ? 'Saving…' : editing ? 'Save changes' : `Create ${def.noun}`}</button>
              <a href={back}>Cancel</a>
            </div>
          </form>
          {editing && (def.kind === 'BlogPost' || def.kind === 'Page') && <ContentItemsEditor kind={def.kind} id={id} failure={failure} />}
        </>
      )}
    </section>
  );
}

function Field({ field: f, value, error, options, creating, onChange }: { field: FormField; value: string; error: string | null; options?: Option[]; creating: boolean; onChange: (value: string) => void }) {
  const id = `field-${f.name}`;
  const described = [f.hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: f.name,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': described,
    'aria-required': f.required ? ('true' as const) : undefined,
  };
  const onInput = (e: Event) => onChange((e.currentTarget as HTMLInputElement).value);
  let control;
  if (f.type === 'textarea') control = <textarea {...common} rows={4} value={value} onInput={onInput} />;
  else if (f.type === 'choice' || f.type === 'ref') {
    const choices = f.type === 'ref' ? (options ?? []) : (f.choices ?? []).map((c) => ({ value: c, label: c }));
    // A stored value the choices do not list (an ID the person may not read) stays selectable.
    const listed = !value || choices.some((c) => c.value === value);
    control = (
      <select {...common} value={value} onChange={onInput} aria-busy={f.type === 'ref' && !options ? 'true' : undefined}>
        <option value="">{f.type === 'ref' ? (options ? '— none —' : 'Loading…') : creating ? '— default —' : '— none —'}</option>
        {!listed && <option value={value}>{f.label} {value}</option>}
        {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </select>
    );
  } else {
    const type = ({ int: 'text', date: 'date', datetime: 'datetime-local', text: 'text', tags: 'text', email: 'email', tel: 'tel' } as const)[f.type];
    // Preact types <input> per `type`; this one input serves several.
    control = <input {...common} type={type as 'text'} inputMode={f.type === 'int' ? ('numeric' as const) : undefined} value={value} onInput={onInput} autoComplete="off" />;
  }
  return (
    <div class={`field${error ? ' invalid' : ''}`} data-field={f.name}>
      <label for={id}>{f.label}{f.required && <span class="required" aria-hidden="true"> *</span>}</label>
      {control}
      {f.hint && <span id={`${id}-hint`} class="hint">{f.hint}</span>}
      {error && <span id={`${id}-error`} class="error field-error">{error}</span>}
    </div>
  );
}

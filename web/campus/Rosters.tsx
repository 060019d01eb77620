// Who belongs where: a section's roster (enrol, change a role, drop) and a group's members (add,
// change a role, remove). The controls are Staff's, as the server's rule is; everyone else sees
// the lists. After each change the record is read again, so what shows is what was stored.
import { useRef, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { when } from '../lib/format.ts';
import { query } from '../lib/graphql.ts';
import { ErrorText, Notice, useChange } from './common.tsx';
import { fullName, recordHref } from './kinds.ts';
import { atLeast, type Me } from './levels.ts';
import * as Op from './operations.ts';

interface Shared {
  reload: () => Promise<void>;
  me: Me;
  failure: (err: unknown) => string;
}

const PARTICIPANT_ROLES: Op.ParticipantRole[] = ['Student', 'Teacher', 'Assistant', 'Observer'];
const MEMBER_ROLES: Op.MemberRole[] = ['Member', 'Administrator', 'Owner', 'Founder'];

type PersonRef = { databaseId: number; firstName: string; lastName: string; username: string | null };
/** How the mutations name a person: the username, else the ID. */
const ident = (p: PersonRef) => p.username ?? String(p.databaseId);
const nameOf = (p: PersonRef) => fullName(p) || ident(p);

export function Roster({ section, reload, me, failure }: Shared & { section: Op.SectionRecord }) {
  const staff = atLeast(me.level, 'Staff');
  const { error, done, busy, run } = useChange(reload, failure);
  const key = String(section.databaseId);
  const label = section.code ?? section.title ?? `section ${section.databaseId}`;
  return (
    <section class="related" aria-label="Roster">
      <h2>Roster <span class="hint">({section.participants.length})</span></h2>
      <ErrorText message={error} />
      <Notice message={done} />
      {section.participants.length === 0 ? (
        <p class="hint">Nobody takes part in this section yet.</p>
      ) : (
        <table class="records roster">
          <caption class="visually-hidden">The roster of {label}</caption>
          <thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">From</th>{staff && <th scope="col"><span class="visually-hidden">Actions</span></th>}</tr></thead>
          <tbody>
            {section.participants.map((p) => (
              <tr key={p.databaseId} data-participant={ident(p.person)} data-role={p.role}>
                <td data-label="Person"><a href={recordHref('Person', p.person.databaseId)}>{nameOf(p.person)}</a> {p.person.username && <span class="hint">{p.person.username}</span>}</td>
                <td data-label="Role">
                  {staff ? (
                    <select
                      aria-label={`Role of ${nameOf(p.person)}`}
                      value={p.role}
                      disabled={busy}
                      onChange={(e) => {
                        const role = e.currentTarget.value as Op.ParticipantRole;
                        void run(() => query(Op.ENROL, { section: key, person: ident(p.person), role }), `${nameOf(p.person)} is now ${role} in ${label}.`);
                      }}
                    >
                      {PARTICIPANT_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  ) : p.role}
                </td>
                <td data-label="From">{p.startDate ? when(p.startDate) : '—'}</td>
                {staff && (
                  <td class="actions">
                    <ConfirmButton label="Drop" name={`Drop ${nameOf(p.person)}`} question={`Drop ${nameOf(p.person)} from ${label}?`} disabled={busy} onConfirm={() => run(() => query(Op.DROP, { section: key, person: ident(p.person) }), `${nameOf(p.person)} was dropped from ${label}.`)} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {staff && (
        <AddPersonForm
          id="enrol"
          legend={`Enrol someone in ${label}`}
          roles={PARTICIPANT_ROLES}
          submitLabel="Enrol"
          busy={busy}
          onAdd={(person, role) => run(() => query(Op.ENROL, { section: key, person, role: role as Op.ParticipantRole }), `${person} was enrolled in ${label} as ${role}.`)}
        />
      )}
    </section>
  );
}

export function GroupMembers({ group, reload, me, failure }: Shared & { group: Op.GroupRecord }) {
  const staff = atLeast(me.level, 'Staff');
  const { error, done, busy, run } = useChange(reload, failure);
  const key = String(group.databaseId);
  // No mutation removes one membership: the person's groups are replaced by the others they
  // are in (setPersonGroups keeps those memberships and their roles).
  const removeMember = async (person: PersonRef) => {
    const { person: current } = await query(Op.PERSON_GROUP_IDS, { id: person.databaseId });
    if (!current) throw new Error(`${nameOf(person)} could not be read.`);
    const others = current.groupMemberships.map((m) => String(m.group.databaseId)).filter((g) => g !== key);
    await query(Op.SET_PERSON_GROUPS, { person: String(person.databaseId), groups: others });
  };
  return (
    <section class="related" aria-label="Members">
      <h2>Members <span class="hint">({group.members.length})</span></h2>
      <ErrorText message={error} />
      <Notice message={done} />
      {group.members.length === 0 ? (
        <p class="hint">This group has no members of its own.</p>
      ) : (
        <table class="records members">
          <caption class="visually-hidden">The members of {group.name}</caption>
          <thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Joined</th>{staff && <th scope="col"><span class="visually-hidden">Actions</span></th>}</tr></thead>
          <tbody>
            {group.members.map((m) => (
              <tr key={m.databaseId} data-member={ident(m.person)} data-role={m.role}>
                <td data-label="Person"><a href={recordHref('Person', m.person.databaseId)}>{nameOf(m.person)}</a> {m.person.username && <span class="hint">{m.person.username}</span>}</td>
                <td data-label="Role">
                  {staff ? (
                    <select
                      aria-label={`Role of ${nameOf(m.person)}`}
                      value={m.role}
                      disabled={busy}
                      onChange={(e) => {
                        const role = e.currentTarget.value as Op.MemberRole;
                        void run(() => query(Op.SET_GROUP_MEMBER, { group: key, person: ident(m.person), role }), `${nameOf(m.person)} is now ${role} of ${group.name}.`);
                      }}
                    >
                      {MEMBER_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  ) : m.role}
                </td>
                <td data-label="Joined">{when(m.joined)}</td>
                {staff && (
                  <td class="actions">
                    <ConfirmButton label="Remove" name={`Remove ${nameOf(m.person)}`} question={`Remove ${nameOf(m.person)} from ${group.name}?`} disabled={busy} onConfirm={() => run(() => removeMember(m.person), `${nameOf(m.person)} was removed from ${group.name}.`)} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {staff && (
        <AddPersonForm
          id="add-member"
          legend={`Add a member to ${group.name}`}
          roles={MEMBER_ROLES}
          submitLabel="Add member"
          busy={busy}
          onAdd={(person, role) => run(() => query(Op.SET_GROUP_MEMBER, { group: key, person, role: role as Op.MemberRole }), `${person} was added to ${group.name} as ${role}.`)}
        />
      )}
    </section>
  );
}

/**
 * A person (username or ID, with suggestions from the people search as one types) and a role.
 * The suggestions are a native datalist: the input stays a plain text field for keyboards and
 * screen readers.
 */
function AddPersonForm({ id, legend, roles, submitLabel, busy, onAdd }: { id: string; legend: string; roles: readonly string[]; submitLabel: string; busy: boolean; onAdd: (person: string, role: string) => Promise<boolean> }) {
  const [person, setPerson] = useState('');
  const [missing, setMissing] = useState(false);
  const [suggestions, setSuggestions] = useState<PersonRef[]>([]);
  const asked = useRef(0);
  const suggest = (text: string) => {
    const n = ++asked.current;
    if (text.trim().length < 2) return setSuggestions([]);
    query(Op.PERSON_SUGGESTIONS, { q: text.trim() }).then(
      ({ people }) => n === asked.current && setSuggestions(people.nodes),
      () => n === asked.current && setSuggestions([]),
    );
  };
  return (
    <form
      class="campus-add"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const role = String(new FormData(e.currentTarget).get('role') ?? roles[0]);
        if (!person.trim()) return setMissing(true);
        setMissing(false);
        if (await onAdd(person.trim(), role)) setPerson('');
      }}
    >
      <fieldset>
        <legend>{legend}</legend>
        <div class="field">
          <label for={`${id}-person`}>Person</label>
          <input
            id={`${id}-person`}
            list={`${id}-people`}
            value={person}
            autoComplete="off"
            aria-invalid={missing || undefined}
            aria-describedby={`${id}-person-hint${missing ? ` ${id}-person-error` : ''}`}
            onInput={(e) => {
              setPerson(e.currentTarget.value);
              suggest(e.currentTarget.value);
            }}
          />
          <datalist id={`${id}-people`}>
            {suggestions.map((p) => <option key={p.databaseId} value={ident(p)}>{fullName(p)}</option>)}
          </datalist>
          {missing && <span id={`${id}-person-error`} class="error field-error">Say who: a username or ID.</span>}
        </div>
        <div class="field">
          <label for={`${id}-role`}>Role</label>
          <select id={`${id}-role`} name="role">{roles.map((r) => <option key={r} value={r}>{r}</option>)}</select>
        </div>
        <button type="submit" disabled={busy}>{submitLabel}</button>
        <p id={`${id}-person-hint`} class="hint">The person: a username or ID; matching people are suggested as you type.</p>
      </fieldset>
    </form>
  );
}

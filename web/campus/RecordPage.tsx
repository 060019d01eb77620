// A campus record's page: its fields, its relationships (a section's course, term and roster; a
// person's groups, sections and contact points; a course's sections; a group's members and
// subgroups; a term's and a location's children and sections), the checks linked to it, and the
// controls the person's account level allows (edit, delete, enrol, drop, add and remove
// members). The record is read again when the server pushes a change of it.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { when } from '../lib/format.ts';
import { query } from '../lib/graphql.ts';
import type { ScreenProps } from '../lib/screen.ts';
import { ErrorText, Heading, Notice, useHandedOver, useRecordChanges, type CampusProps } from './common.tsx';
import { fullName, kindByName, recordHref, sectionTitle, type KindDef } from './kinds.ts';
import { atLeast, type Me } from './levels.ts';
import { LinkedChecks } from './LinkedChecks.tsx';
import * as Op from './operations.ts';
import { GroupMembers, Roster } from './Rosters.tsx';
import { PersonNotes } from './PersonNotes.tsx';
import { PersonContacts } from './PersonContacts.tsx';
import { PersonPhotos } from './PersonPhotos.tsx';
import { SectionMappings } from './RecordMappings.tsx';
import { ContentItemsView } from './ContentItems.tsx';
import { DEPARTMENT, SCHEDULE, scheduleTitle, type DepartmentRecord, type ScheduleRecord } from './course-groupings.ts';
import { DepartmentBody, ScheduleBody } from './CourseGroupingViews.tsx';

type Props = CampusProps & ScreenProps & { def: KindDef; id: number; params: URLSearchParams };

/** What each kind's view needs: the record as read, and a way to read it again after a change. */
interface ViewProps<R> {
  record: R;
  reload: () => Promise<void>;
  me: Me;
  failure: (err: unknown) => string;
}

// Each kind: its document, the title of a record, and the view of its fields and relationships.
interface View<R> {
  load(id: number): Promise<R | null>;
  title(record: R): string;
  Body(props: ViewProps<R>): ComponentChildren;
}

const VIEWS: Record<Op.CampusKind, View<never>> = {
  Person: view<Op.PersonRecord>(async (id) => (await query(Op.PERSON, { id })).person, (r) => fullName(r), PersonBody),
  Section: view<Op.SectionRecord>(async (id) => (await query(Op.SECTION, { id })).section, sectionTitle, SectionBody),
  Course: view<Op.CourseRecord>(async (id) => (await query(Op.COURSE, { id })).course, (r) => r.title, CourseBody),
  Term: view<TermData>(async (id) => {
    const data = await query(Op.TERM, { id });
    return data.term && { ...data.term, sectionsPage: data.sections };
  }, (r) => r.title, TermBody),
  Location: view<LocationData>(async (id) => {
    const data = await query(Op.LOCATION, { id });
    return data.location && { ...data.location, sectionsPage: data.sections };
  }, (r) => r.title, LocationBody),
  Group: view<Op.GroupRecord>(async (id) => (await query(Op.GROUP, { id })).group, (r) => r.name, GroupBody),
  BlogPost: view<Op.BlogPostRecord>(async (id) => (await query(Op.BLOG_POST, { id })).blogPost, (r) => r.title, ContentBody),
  Page: view<Op.PageRecord>(async (id) => (await query(Op.PAGE, { id })).page, (r) => r.title, ContentBody),
  Department: view<DepartmentRecord>(async (id) => (await query(DEPARTMENT, { id })).department, (r) => r.title, DepartmentBody),
  Schedule: view<ScheduleRecord>(async (id) => (await query(SCHEDULE, { id })).schedule, scheduleTitle, ScheduleBody),
};

function view<R>(load: (id: number) => Promise<R | null>, title: (r: R) => string, Body: (p: ViewProps<R>) => ComponentChildren): View<never> {
  return { load, title, Body } as unknown as View<never>;
}

type Loaded = { id: string; databaseId: number; authorId?: number | null };

export function RecordPage({ def, id, me, live, failure, session, params }: Props) {
  const v = VIEWS[def.kind] as unknown as View<Loaded>;
  const [record, setRecord] = useState<Loaded | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [gone, setGone] = useState(false);
  const [notice, setNotice] = useState<string | null>(useHandedOver(params, 'saved') ? `The ${def.noun} was saved.` : null);
  const active = useRef(true);
  useEffect(() => () => void (active.current = false), []);

  const reload = async () => {
    try {
      const r = await v.load(id);
      if (!active.current) return;
      setRecord(r);
      setError(null);
    } catch (err) {
      if (active.current) setError(failure(err));
    }
  };
  useEffect(() => void reload(), [def.kind, id]);
  useRecordChanges(live, def.kind, (change) => {
    if (change && change.id !== id) return;
    if (change?.action === 'DELETED') return setGone(true);
    void reload();
  }, [id]);

  const list = <p class="crumbs"><a href={`#/campus/${def.route}`}>{def.plural}</a></p>;
  if (record === undefined) return <section>{list}{error ? <ErrorText message={error} /> : <p>Loading…</p>}</section>;
  if (record === null) {
    return (
      <section>
        {list}
        <Heading>Not found</Heading>
        <p>There is no {def.noun} {id}, or it is not one you may see.</p>
      </section>
    );
  }
  const title = v.title(record);
  const mayWrite = atLeast(me.level, def.write) || (record.authorId != null && record.authorId === me.personId && atLeast(me.level, def.create));
  const remove = async () => {
    setError(null);
    try {
      await def.deleteRecord(id);
      location.hash = `#/campus/${def.route}?deleted=${encodeURIComponent(title)}`;
    } catch (err) {
      setError(failure(err));
    }
  };
  const Body = v.Body;
  return (
    <article class="record" data-kind={def.kind} data-record={id}>
      {list}
      <div class="campus-head">
        <Heading>{title}</Heading>
        {mayWrite && (
          <span class="actions">
            <a class="button secondary" href={`#/campus/${def.route}/${id}/edit`} aria-label={`Edit ${title}`}>Edit</a>{' '}
            <ConfirmButton label="Delete" name={`Delete ${title}`} question={`Delete the ${def.noun} “${title}”${def.kind === 'Group' || def.kind === 'Location' ? ' and everything inside it' : ''}? This cannot be undone.`} onConfirm={remove} />
          </span>
        )}
      </div>
      {gone && <p class="error" role="alert">This {def.noun} was deleted.</p>}
      <ErrorText message={error} />
      <Notice message={notice} />
      <Body record={record as never} reload={async () => { setNotice(null); await reload(); }} me={me} failure={failure} />
      {def.checkLinks !== false && <LinkedChecks kind={def.kind} nodeId={record.id} databaseId={record.databaseId} title={title} session={session} live={live} failure={failure} />}
    </article>
  );
}

// Pieces of the views.

function Facts({ items }: { items: Array<[string, ComponentChildren]> }) {
  const shown = items.filter(([, value]) => value !== null && value !== undefined && value !== '');
  return (
    <dl class="facts record-facts">
      {shown.map(([label, value]) => [<dt key={`t-${label}`}>{label}</dt>, <dd key={`d-${label}`}>{value}</dd>])}
    </dl>
  );
}

function RecordLink({ kind, id, children }: { kind: Op.CampusKind; id: number; children: ComponentChildren }) {
  return <a href={recordHref(kind, id)}>{children}</a>;
}

function Related({ title, count, empty, children }: { title: string; count: number; empty: string; children: ComponentChildren }) {
  return (
    <section class="related" aria-label={title}>
      <h2>{title} <span class="hint">({count})</span></h2>
      {count === 0 ? <p class="hint">{empty}</p> : children}
    </section>
  );
}

const dateText = (v: string | null | undefined) => (v ? v.slice(0, 10) : null);

type SectionRow = { databaseId: number; code: string | null; title: string | null; course?: { title: string } | null; term?: { title: string } | null; studentsCount?: number };
function SectionsTable({ sections, caption }: { sections: SectionRow[]; caption: string }) {
  const withTerm = sections.some((s) => s.term !== undefined);
  const withCourse = sections.some((s) => s.course !== undefined);
  const withCount = sections.some((s) => s.studentsCount !== undefined);
  return (
    <table class="records">
      <caption class="visually-hidden">{caption}</caption>
      <thead><tr><th scope="col">Section</th>{withCourse && <th scope="col">Course</th>}{withTerm && <th scope="col">Term</th>}{withCount && <th scope="col">Students</th>}</tr></thead>
      <tbody>
        {sections.map((s) => (
          <tr key={s.databaseId} data-section={s.databaseId}>
            <td data-label="Section"><RecordLink kind="Section" id={s.databaseId}>{sectionTitle(s)}</RecordLink></td>
            {withCourse && <td data-label="Course">{s.course?.title ?? '—'}</td>}
            {withTerm && <td data-label="Term">{s.term?.title ?? '—'}</td>}
            {withCount && <td data-label="Students">{s.studentsCount}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Children({ kind, items, label }: { kind: Op.CampusKind; items: Array<{ databaseId: number; title?: string; name?: string }>; label: string }) {
  return (
    <Related title={label} count={items.length} empty={`No ${label.toLowerCase()}.`}>
      <ul>
        {items.map((c) => <li key={c.databaseId}><RecordLink kind={kind} id={c.databaseId}>{c.title ?? c.name}</RecordLink></li>)}
      </ul>
    </Related>
  );
}

// The views.

function PersonBody({ record: p, me, failure }: ViewProps<Op.PersonRecord>) {
  return (
    <>
      <Facts
        items={[
          ['Username', p.username],
          ['Account level', p.accountLevel],
          ['Middle name', p.middleName],
          ['Gender', p.gender],
          ['Birth date', dateText(p.birthDate)],
          ['Location', p.location],
          ['About', p.about],
        ]}
      />
      <section class="related" aria-label="Contact points">
        <h2>Contact points</h2>
        {p.primaryEmail || p.primaryPhone || p.primaryPostal ? (
          <Facts items={[['Email', p.primaryEmail && <a href={`mailto:${p.primaryEmail}`}>{p.primaryEmail}</a>], ['Phone', p.primaryPhone], ['Postal address', p.primaryPostal]]} />
        ) : (
          <p class="hint">None you may see (contact points are shown to Staff and to the person themselves).</p>
        )}
      </section>
      <Related title="Groups" count={p.groupMemberships.length} empty="Not a member of any group you may see.">
        <ul>
          {p.groupMemberships.map((m) => (
            <li key={m.databaseId} data-group={m.group.databaseId}><RecordLink kind="Group" id={m.group.databaseId}>{m.group.fullPath}</RecordLink> <span class="hint">{m.role}</span></li>
          ))}
        </ul>
      </Related>
      <Related title="Sections" count={p.sectionParticipations.length} empty="Takes part in no section you may see.">
        <table class="records">
          <caption class="visually-hidden">Sections {fullName(p)} takes part in</caption>
          <thead><tr><th scope="col">Section</th><th scope="col">Course</th><th scope="col">Term</th><th scope="col">Role</th></tr></thead>
          <tbody>
            {p.sectionParticipations.map((s) => (
              <tr key={s.databaseId} data-section={s.section.databaseId}>
                <td data-label="Section"><RecordLink kind="Section" id={s.section.databaseId}>{sectionTitle(s.section)}</RecordLink></td>
                <td data-label="Course">{s.section.course?.title ?? '—'}</td>
                <td data-label="Term">{s.section.term?.title ?? '—'}</td>
                <td data-label="Role">{s.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Related>
      {/* Each time the page reads the person again (a change pushed live), the panels do too. */}
      <PersonPhotos personId={p.databaseId} me={me} failure={failure} revision={p} />
      <PersonContacts personId={p.databaseId} me={me} failure={failure} revision={p} />
      <PersonNotes personId={p.databaseId} me={me} failure={failure} revision={p} />
    </>
  );
}

function SectionBody({ record: s, reload, me, failure }: ViewProps<Op.SectionRecord>) {
  return (
    <>
      <Facts
        items={[
          ['Course', s.course && <RecordLink kind="Course" id={s.course.databaseId}>{s.course.code} · {s.course.title}</RecordLink>],
          ['Term', s.term && <RecordLink kind="Term" id={s.term.databaseId}>{s.term.title}</RecordLink>],
          ['Location', s.location && <RecordLink kind="Location" id={s.location.databaseId}>{s.location.title}</RecordLink>],
          ['Schedule', s.schedule && <RecordLink kind="Schedule" id={s.schedule.databaseId}>{scheduleTitle(s.schedule)}</RecordLink>],
          ['Status', s.status],
          ['Students', `${s.studentsCount}${s.studentsCapacity !== null ? ` of ${s.studentsCapacity}` : ''}`],
          ['Handle', s.handle],
          ['Notes', s.notes],
        ]}
      />
      <Roster section={s} reload={reload} me={me} failure={failure} />
      <SectionMappings sectionId={s.databaseId} me={me} failure={failure} />
      {s.blogPosts.length > 0 && <Children kind="BlogPost" items={s.blogPosts} label="Blog posts" />}
    </>
  );
}

function CourseBody({ record: c }: ViewProps<Op.CourseRecord>) {
  return (
    <>
      <Facts items={[['Code', c.code], ['Status', c.status], ['Handle', c.handle], ['Department', c.department && <RecordLink kind="Department" id={c.department.databaseId}>{c.department.title}</RecordLink>], ['Description', c.description], ['Prerequisites', c.prerequisites]]} />
      <Related title="Sections" count={c.sections.length} empty="No sections of this course.">
        <SectionsTable sections={c.sections} caption={`Sections of ${c.title}`} />
      </Related>
    </>
  );
}

type SectionsPage = { totalCount: number; nodes: SectionRow[] };
type TermData = Op.TermRecord & { sectionsPage: SectionsPage };
type LocationData = Op.LocationRecord & { sectionsPage: SectionsPage };

function SectionsOf({ page, caption }: { page: SectionsPage; caption: string }) {
  return (
    <Related title="Sections" count={page.totalCount} empty="No sections.">
      <SectionsTable sections={page.nodes} caption={caption} />
      {page.totalCount > page.nodes.length && <p class="hint">The first {page.nodes.length} of {page.totalCount}.</p>}
    </Related>
  );
}

function TermBody({ record: t }: ViewProps<TermData>) {
  return (
    <>
      <Facts
        items={[
          ['Starts', dateText(t.starDate)],
          ['Ends', dateText(t.endDate)],
          ['Status', t.status],
          ['Handle', t.handle],
          ['Inside', t.parent && <RecordLink kind="Term" id={t.parent.databaseId}>{t.parent.title}</RecordLink>],
        ]}
      />
      <Children kind="Term" items={t.children} label="Terms inside" />
      <SectionsOf page={t.sectionsPage} caption={`Sections in ${t.title}`} />
    </>
  );
}

function LocationBody({ record: l }: ViewProps<LocationData>) {
  return (
    <>
      <Facts items={[['Status', l.status], ['Handle', l.handle], ['Inside', l.parent && <RecordLink kind="Location" id={l.parent.databaseId}>{l.parent.title}</RecordLink>], ['Description', l.description]]} />
      <Children kind="Location" items={l.children} label="Locations inside" />
      <SectionsOf page={l.sectionsPage} caption={`Sections at ${l.title}`} />
    </>
  );
}

function GroupBody({ record: g, reload, me, failure }: ViewProps<Op.GroupRecord>) {
  return (
    <>
      <Facts
        items={[
          ['Path', g.fullPath],
          ['Population', `${g.population} (members here and in the groups inside)`],
          ['Status', g.status],
          ['Handle', g.handle],
          ['Founded', dateText(g.founded)],
          ['Inside', g.parent && <RecordLink kind="Group" id={g.parent.databaseId}>{g.parent.name}</RecordLink>],
          ['Data', g.data],
        ]}
      />
      <GroupMembers group={g} reload={reload} me={me} failure={failure} />
      <Children kind="Group" items={g.children} label="Subgroups" />
    </>
  );
}

function ContentBody({ record: c }: ViewProps<Op.BlogPostRecord | Op.PageRecord>) {
  const context = c.contextClass && c.contextId ? contextLink(c.contextClass, c.contextId) : null;
  return (
    <>
      <Facts
        items={[
          ['Author', c.author && <RecordLink kind="Person" id={c.author.databaseId}>{fullName(c.author)}</RecordLink>],
          ['Published', c.published && when(c.published)],
          ['Status', c.status],
          ['Visibility', c.visibility],
          ['Handle', c.handle],
          ['Tags', c.tags.length ? c.tags.map((t) => <span key={t} class="tag">{t}</span>) : null],
          ['Context', context],
        ]}
      />
      <ContentItemsView nodeId={c.id} version={c} />
      <Related title="Comments" count={c.comments.length} empty="No comments.">
        <ul class="comments">
          {c.comments.map((m) => <li key={m.databaseId}><span class="hint">{when(m.created)}</span> {m.message}</li>)}
        </ul>
      </Related>
    </>
  );
}

/** Slate's ContextClass names a record class; the kinds here that have pages are linked. */
function contextLink(contextClass: string, contextId: number) {
  const kind = (['Person', 'Section', 'Course', 'Group', 'Location', 'Term'] as const).find((k) => contextClass.endsWith(`\\${k}`));
  return kind ? <RecordLink kind={kind} id={contextId}>{kindByName(kind).noun} {contextId}</RecordLink> : `${contextClass} ${contextId}`;
}

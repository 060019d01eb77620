// The record pages of a course department (its courses) and of a course schedule (the sections
// that meet on it), in the markup and classes of the other record pages (RecordPage.tsx).
import type { ComponentChildren } from 'preact';
import { recordHref, sectionTitle } from './kinds.ts';
import type { DepartmentRecord, ScheduleRecord } from './course-groupings.ts';

function Facts({ items }: { items: Array<[string, ComponentChildren]> }) {
  const shown = items.filter(([, value]) => value !== null && value !== undefined && value !== '');
  return (
    <dl class="facts record-facts">
      {shown.map(([label, value]) => [<dt key={`t-${label}`}>{label}</dt>, <dd key={`d-${label}`}>{value}</dd>])}
    </dl>
  );
}

function Related({ title, count, empty, children }: { title: string; count: number; empty: string; children: ComponentChildren }) {
  return (
    <section class="related" aria-label={title}>
      <h2>{title} <span class="hint">({count})</span></h2>
      {count === 0 ? <p class="hint">{empty}</p> : children}
    </section>
  );
}

export function DepartmentBody({ record: d }: { record: DepartmentRecord }) {
  return (
    <>
      <Facts items={[['Code', d.code], ['Status', d.status], ['Handle', d.handle], ['Description', d.description]]} />
      <Related title="Courses" count={d.courses.length} empty="No courses in this department.">
        <table class="records">
          <caption class="visually-hidden">Courses of {d.title}</caption>
          <thead><tr><th scope="col">Course</th><th scope="col">Code</th><th scope="col">Status</th></tr></thead>
          <tbody>
            {d.courses.map((c) => (
              <tr key={c.databaseId} data-course={c.databaseId}>
                <td data-label="Course"><a href={recordHref('Course', c.databaseId)}>{c.title}</a></td>
                <td data-label="Code">{c.code}</td>
                <td data-label="Status">{c.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Related>
    </>
  );
}

export function ScheduleBody({ record: s }: { record: ScheduleRecord }) {
  return (
    <>
      <Facts items={[['Status', s.status], ['Handle', s.handle], ['Description', s.description]]} />
      <Related title="Sections" count={s.sections.length} empty="No sections meet on this schedule.">
        <table class="records">
          <caption class="visually-hidden">Sections on this schedule</caption>
          <thead><tr><th scope="col">Section</th><th scope="col">Course</th><th scope="col">Term</th></tr></thead>
          <tbody>
            {s.sections.map((x) => (
              <tr key={x.databaseId} data-section={x.databaseId}>
                <td data-label="Section"><a href={recordHref('Section', x.databaseId)}>{sectionTitle(x)}</a></td>
                <td data-label="Course">{x.course?.title ?? '—'}</td>
                <td data-label="Term">{x.term?.title ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Related>
    </>
  );
}

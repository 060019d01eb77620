// Campus records for the signed-in person (#/campus…): the eight Slate kinds to browse and
// search (#/campus/<kind>), a record's page with its relationships and linked checks
// (#/campus/<kind>/<id>), and the forms that create and edit records (…/new, …/<id>/edit). The
// session cookie reaches the campus API as the person; their account level decides what is
// served and accepted, and the controls the server would refuse are left out.
import { useEffect, useState } from 'preact/hooks';
import { query, RequestError } from '../lib/graphql.ts';
import { lazyScreen } from '../lib/lazy.tsx';
import { useHash } from '../lib/route.ts';
import { hashPath, type ScreenProps } from '../lib/screen.ts';
import { failureMessage, hashParams, Heading, type CampusProps } from './common.tsx';
import { KINDS, kindByRoute, recordHref, type KindDef } from './kinds.ts';
import { atLeast, type Me } from './levels.ts';
import { VIEWER } from './operations.ts';
import { RecordList } from './RecordList.tsx';

type PageProps = CampusProps & ScreenProps & { def: KindDef; id: number; params: URLSearchParams };
type FormProps = CampusProps & { def: KindDef; id: number | null };
// A record's page and the forms load when first opened: the list is what most visits need.
const RecordPage = lazyScreen<PageProps, typeof import('./RecordPage.tsx')>(() => import('./RecordPage.tsx'), 'RecordPage');
const RecordForm = lazyScreen<FormProps, typeof import('./RecordForm.tsx')>(() => import('./RecordForm.tsx'), 'RecordForm');

export function CampusScreen(props: ScreenProps) {
  const { live, account, onRefused } = props;
  const hash = useHash();
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    query(VIEWER).then(
      ({ viewer }) => {
        if (!active) return;
        if (!viewer) return onRefused();
        const p = viewer.person;
        setMe({ personId: p.databaseId, level: viewer.accountLevel, name: `${p.firstName} ${p.lastName}`.trim() || account.viewer.username });
      },
      (err: unknown) => active && setError(failureMessage(err)),
    );
    return () => {
      active = false;
    };
  }, [account.viewer.username]);

  const failure = (err: unknown) => {
    if (err instanceof RequestError && err.code === 'UNAUTHENTICATED') onRefused();
    return failureMessage(err);
  };

  const [, route, idPart, action] = hashPath(hash);
  const def = kindByRoute(route);
  const params = hashParams(hash);
  let body;
  if (error) body = <p class="error" role="alert">{error}</p>;
  else if (!me) body = <p>Loading…</p>;
  else if (route === undefined) body = <CampusIndex me={me} />;
  else if (!def) body = <NotFound what={`There are no campus records called “${route}”.`} />;
  else if (idPart === undefined) body = <RecordList key={def.route} def={def} me={me} live={live} failure={failure} params={params} />;
  else if (idPart === 'new' && action === undefined) body = <RecordForm key={`${def.route}/new`} def={def} id={null} me={me} live={live} failure={failure} />;
  else if (!/^\d+$/.test(idPart) || (action !== undefined && action !== 'edit')) body = <NotFound what="This address names no record." />;
  else if (action === 'edit') body = <RecordForm key={`${def.route}/${idPart}/edit`} def={def} id={Number(idPart)} me={me} live={live} failure={failure} />;
  else body = <RecordPage key={`${def.route}/${idPart}`} {...props} def={def} id={Number(idPart)} me={me} failure={failure} params={params} />;

  return (
    <div class="campus">
      <nav class="campus-kinds" aria-label="Campus record kinds">
        <a href="#/campus" aria-current={route === undefined ? 'page' : undefined}>Overview</a>
        {KINDS.map((k) => (
          <a key={k.route} href={`#/campus/${k.route}`} aria-current={k === def && idPart === undefined ? 'page' : undefined}>{k.plural}</a>
        ))}
      </nav>
      {body}
    </div>
  );
}

function NotFound({ what }: { what: string }) {
  return (
    <section>
      <Heading>Not found</Heading>
      <p>{what} <a href="#/campus">Back to the campus records</a>.</p>
    </section>
  );
}

const ABOUT: Record<string, string> = {
  people: 'Students, staff and contacts, with their groups, sections and contact points.',
  sections: 'Course sections: their course, term, location and roster.',
  courses: 'Courses and their sections.',
  departments: 'Course departments and their courses.',
  schedules: 'When sections meet, and the sections on each schedule.',
  terms: 'School years and the terms inside them.',
  locations: 'Buildings and rooms.',
  groups: 'Groups of people, with their members and subgroups.',
  blog: 'Blog posts.',
  pages: 'Pages.',
};

function CampusIndex({ me }: { me: Me }) {
  return (
    <section>
      <Heading>Campus records</Heading>
      <p>
        Signed in as <a href={recordHref('Person', me.personId)}>{me.name}</a>, account level <strong data-level={me.level}>{me.level}</strong>.{' '}
        {atLeast(me.level, 'Staff') ? 'You may create, edit and delete records, and manage rosters and groups.' : 'You may read records; changing them needs a Staff account.'}
      </p>
      <ul class="campus-index">
        {KINDS.map((k) => (
          <li key={k.route}>
            <a href={`#/campus/${k.route}`}>{k.plural}</a>
            <span class="hint"> {ABOUT[k.route]}{k.browse && !atLeast(me.level, k.browse) ? ` The list is for ${k.browse} accounts and above.` : ''}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

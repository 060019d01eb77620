// Slate's routes beyond the generic record set: a group's members, a section's students,
// the section participants browse and create, login, and the 404 for any other path under
// a campus prefix.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { endSession, login, sessionOf } from '../../src/campus/auth.ts';
import { KIND_LIST, KINDS } from '../../src/campus/kinds.ts';
import { setSectionParticipant } from '../../src/campus/relationships.ts';
import { browseParticipants, groupMembers, sectionStudents } from '../../src/campus/rosters.ts';
import type { CampusDeps } from '../../src/campus/service.ts';
import { sendJson } from '../../src/http/respond.ts';
import { unauthenticated } from '../../src/shared/errors.ts';
import { LOGIN_REQUIRED } from '../../src/campus/access.ts';
import { given, intParam } from './browse.ts';
import { includeParam, parseInclude, withIncludes } from './include.ts';
import { loginFields, readFields, sessionToken, singleField } from './request.ts';
import { epoch, linkJson, recordJson } from './serialize.ts';
import type { Handler, Route } from './handler.ts';

/** Slate's answer for a path under a campus prefix that names no route. */
export const PAGE_NOT_FOUND = 'Page not found';

/** The first path segments the campus routes own: a path under one that no route serves is Slate's "Page not found". */
const PREFIXES = new Set([...KIND_LIST.map((k) => k.prefix), 'section-participants', 'login', 'notes', 'contact-points', 'relationships']);

/**
 * For the router's default route: answers Slate's 404 for a path under a campus prefix (an
 * unknown sub-route, another method, or percent-encoding that does not decode) and returns
 * true; false for any other path.
 */
export function campusNotFound(req: IncomingMessage, res: ServerResponse): boolean {
  // The raw path: a malformed escape must not stop us from reading the first segment.
  const first = (req.url ?? '/').split(/[?#]/, 1)[0]!.split('/')[1] ?? '';
  if (!PREFIXES.has(first)) return false;
  sendJson(res, 404, { success: false, message: PAGE_NOT_FOUND });
  return true;
}

export function registerExtraRoutes(route: Route, deps: CampusDeps) {
  route(['GET'], '/groups/:ident/members', async ({ query, viewer, params }) => {
    const { group, people } = await groupMembers(deps, viewer, params.ident!);
    return { success: true, data: await withIncludes(deps, viewer, KINDS.Person, people, includeParam(query)), group: recordJson(KINDS.Group, group, viewer) };
  });

  // Slate answers this one without a `success` key.
  route(['GET'], '/sections/:ident/students', async ({ query, viewer, params }) => {
    const students = await sectionStudents(deps, viewer, params.ident!, { inactive: !!given(query.get('inactive')) });
    return { data: await withIncludes(deps, viewer, KINDS.Person, students, includeParam(query)) };
  });

  route(['GET'], '/section-participants', async ({ query, viewer }) => {
    const includes = parseInclude(includeParam(query));
    const result = await browseParticipants(
      deps,
      viewer,
      { courseSection: given(query.get('course_section')), term: given(query.get('term')), student: given(query.get('student')), role: given(query.get('role')) },
      { limit: intParam(query.get('limit')), offset: intParam(query.get('offset')), person: includes.has('Person'), section: includes.has('Section') },
    );
    const data = result.records.map((row) => {
      const out = linkJson(row);
      if (row.person) out.Person = recordJson(KINDS.Person, row.person, viewer);
      if (row.section) out.Section = recordJson(KINDS.Section, row.section, viewer);
      return out;
    });
    return { success: true, data, conditions: [], total: result.total, limit: result.limit ?? false, offset: intParam(query.get('offset')) ?? false };
  });

  route(['POST'], '/section-participants/create', async ({ req, viewer }) => {
    const f = await readFields(req);
    const row = await setSectionParticipant(deps, viewer, singleField(f, 'CourseSectionID'), singleField(f, 'PersonID'), singleField(f, 'Role'));
    return { success: true, data: linkJson(row) };
  });

  const sessionJson = (session: { ID: number; Created: Date; PersonID: number }, token: string, lastRequest?: Date) => ({
    ID: session.ID,
    Class: 'UserSession',
    Created: epoch(session.Created),
    Handle: token,
    ...(lastRequest ? { LastRequest: epoch(lastRequest) } : {}),
    PersonID: session.PersonID,
  });

  // Slate's GET /login: the caller's session, or the login-required answer.
  route(['GET'], '/login', async ({ req, query, viewer }) => {
    const token = await sessionToken(req, query);
    const session = viewer.personId !== null && token ? await sessionOf(deps.db, token) : null;
    if (!session) throw unauthenticated(LOGIN_REQUIRED);
    return { success: true, data: sessionJson(session, token!, session.LastRequest) };
  });

  route(['POST'], '/login', async ({ req }) => {
    const { username, password } = loginFields(await readFields(req));
    const { person, token, session } = await login(deps.db, username, password);
    return { success: true, data: sessionJson({ ...session, PersonID: person.ID }, token) };
  });

  // Slate's /login/logout, and /logout (site-root/logout.php) the same.
  const logout: Handler = async ({ req, query }) => {
    const token = await sessionToken(req, query);
    if (token) await endSession(deps.db, token);
    return { success: true };
  };
  route(['GET', 'POST'], '/login/logout', logout);
  route(['GET', 'POST'], '/logout', logout);
}

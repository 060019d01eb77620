// Course departments and schedules in the app: their documents (their rows of the kind table
// are in kinds.ts) and the choices of the reference fields that name them (a course's
// department, a section's schedule).
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc, query } from '../lib/graphql.ts';

export const DEPARTMENTS = doc<G.CampusDepartmentsQuery, G.CampusDepartmentsQueryVariables>(/* GraphQL */ `
  query CampusDepartments($q: String, $first: Int, $offset: Int) {
    departments(q: $q, first: $first, offset: $offset) { totalCount nodes { databaseId title code status } }
  }
`);

export const SCHEDULES = doc<G.CampusSchedulesQuery, G.CampusSchedulesQueryVariables>(/* GraphQL */ `
  query CampusSchedules($q: String, $first: Int, $offset: Int) {
    schedules(q: $q, first: $first, offset: $offset) { totalCount nodes { databaseId title handle status } }
  }
`);

export const DEPARTMENT = doc<G.CampusDepartmentQuery, G.CampusDepartmentQueryVariables>(/* GraphQL */ `
  query CampusDepartment($id: ID!) {
    department(id: $id) {
      id databaseId title handle code status description
      courses { databaseId code title status }
    }
  }
`);
export type DepartmentRecord = NonNullable<G.CampusDepartmentQuery['department']>;

export const SCHEDULE = doc<G.CampusScheduleQuery, G.CampusScheduleQueryVariables>(/* GraphQL */ `
  query CampusSchedule($id: ID!) {
    schedule(id: $id) {
      id databaseId title handle status description
      sections { databaseId code title course { title } term { title } }
    }
  }
`);
export type ScheduleRecord = NonNullable<G.CampusScheduleQuery['schedule']>;

export const CREATE_DEPARTMENT = doc<G.CampusCreateDepartmentMutation, G.CampusCreateDepartmentMutationVariables>(/* GraphQL */ `
  mutation CampusCreateDepartment($input: DepartmentInput!) { createDepartment(input: $input) { databaseId } }
`);
export const UPDATE_DEPARTMENT = doc<G.CampusUpdateDepartmentMutation, G.CampusUpdateDepartmentMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateDepartment($id: ID!, $input: DepartmentInput!) { updateDepartment(id: $id, input: $input) { databaseId } }
`);
export const DELETE_DEPARTMENT = doc<G.CampusDeleteDepartmentMutation, G.CampusDeleteDepartmentMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteDepartment($id: ID!) { deleteDepartment(id: $id) { databaseId } }
`);

export const CREATE_SCHEDULE = doc<G.CampusCreateScheduleMutation, G.CampusCreateScheduleMutationVariables>(/* GraphQL */ `
  mutation CampusCreateSchedule($input: ScheduleInput!) { createSchedule(input: $input) { databaseId } }
`);
export const UPDATE_SCHEDULE = doc<G.CampusUpdateScheduleMutation, G.CampusUpdateScheduleMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateSchedule($id: ID!, $input: ScheduleInput!) { updateSchedule(id: $id, input: $input) { databaseId } }
`);
export const DELETE_SCHEDULE = doc<G.CampusDeleteScheduleMutation, G.CampusDeleteScheduleMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteSchedule($id: ID!) { deleteSchedule(id: $id) { databaseId } }
`);

export const DEPARTMENT_OPTIONS = doc<G.CampusDepartmentOptionsQuery, G.CampusDepartmentOptionsQueryVariables>(/* GraphQL */ `
  query CampusDepartmentOptions { departments { nodes { databaseId title code } } }
`);
export const SCHEDULE_OPTIONS = doc<G.CampusScheduleOptionsQuery, G.CampusScheduleOptionsQueryVariables>(/* GraphQL */ `
  query CampusScheduleOptions { schedules { nodes { databaseId title handle } } }
`);

/** A schedule's title is optional (Slate's Schedule); its handle always names it. */
export const scheduleTitle = (s: { title: string | null; handle: string | null; databaseId: number }) => s.title || s.handle || `Schedule ${s.databaseId}`;

/** The form choices of a course's department and a section's schedule (the lists need Staff, as the forms do). */
export const departmentOptions = async () =>
  (await query(DEPARTMENT_OPTIONS)).departments.nodes.map((d) => ({ value: String(d.databaseId), label: d.code ? `${d.code} · ${d.title}` : d.title }));
export const scheduleOptions = async () => (await query(SCHEDULE_OPTIONS)).schedules.nodes.map((s) => ({ value: String(s.databaseId), label: scheduleTitle(s) }));

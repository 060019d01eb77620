// The campus screens' documents: each kind's list, record page, create/update/delete, the
// rosters and memberships, and the checks linked to a record. The signed-in person's session
// cookie goes with every request; their Slate AccountLevel decides what the server serves and
// accepts. Types from `npm run codegen` (no fragments: the client preset would mask them).
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export type CampusKind = G.CampusKind;
export type ParticipantRole = G.ParticipantRole;
export type MemberRole = G.GroupMemberRole;

export const VIEWER = doc<G.CampusViewerQuery, G.CampusViewerQueryVariables>(/* GraphQL */ `
  query CampusViewer { viewer { accountLevel person { databaseId firstName lastName username } } }
`);
export type CampusViewer = NonNullable<G.CampusViewerQuery['viewer']>;

// Lists: a page of `first` records from `offset`, matching Slate's search string `q`.

export const PEOPLE = doc<G.CampusPeopleQuery, G.CampusPeopleQueryVariables>(/* GraphQL */ `
  query CampusPeople($q: String, $first: Int, $offset: Int) {
    people(q: $q, first: $first, offset: $offset) { totalCount nodes { databaseId firstName lastName username accountLevel } }
  }
`);

export const SECTIONS = doc<G.CampusSectionsQuery, G.CampusSectionsQueryVariables>(/* GraphQL */ `
  query CampusSections($q: String, $first: Int, $offset: Int) {
    sections(q: $q, first: $first, offset: $offset) {
      totalCount
      nodes { databaseId code title status studentsCount course { code title } term { title } }
    }
  }
`);

export const COURSES = doc<G.CampusCoursesQuery, G.CampusCoursesQueryVariables>(/* GraphQL */ `
  query CampusCourses($q: String, $first: Int, $offset: Int) {
    courses(q: $q, first: $first, offset: $offset) { totalCount nodes { databaseId code title status } }
  }
`);

export const TERMS = doc<G.CampusTermsQuery, G.CampusTermsQueryVariables>(/* GraphQL */ `
  query CampusTerms($q: String, $first: Int, $offset: Int) {
    terms(q: $q, first: $first, offset: $offset) { totalCount nodes { databaseId title handle status starDate endDate } }
  }
`);

export const LOCATIONS = doc<G.CampusLocationsQuery, G.CampusLocationsQueryVariables>(/* GraphQL */ `
  query CampusLocations($q: String, $first: Int, $offset: Int) {
    locations(q: $q, first: $first, offset: $offset) { totalCount nodes { databaseId title handle status parent { title } } }
  }
`);

export const GROUPS = doc<G.CampusGroupsQuery, G.CampusGroupsQueryVariables>(/* GraphQL */ `
  query CampusGroups($q: String, $first: Int, $offset: Int) {
    groups(q: $q, first: $first, offset: $offset) { totalCount nodes { databaseId name fullPath handle status population } }
  }
`);

export const BLOG_POSTS = doc<G.CampusBlogPostsQuery, G.CampusBlogPostsQueryVariables>(/* GraphQL */ `
  query CampusBlogPosts($q: String, $first: Int, $offset: Int) {
    blogPosts(q: $q, first: $first, offset: $offset) {
      totalCount
      nodes { databaseId title handle status visibility published author { firstName lastName } }
    }
  }
`);

export const PAGES = doc<G.CampusPagesQuery, G.CampusPagesQueryVariables>(/* GraphQL */ `
  query CampusPages($q: String, $first: Int, $offset: Int) {
    pages(q: $q, first: $first, offset: $offset) {
      totalCount
      nodes { databaseId title handle status visibility published author { firstName lastName } }
    }
  }
`);

// One record with its relationships (and the raw values its edit form starts from).

export const PERSON = doc<G.CampusPersonQuery, G.CampusPersonQueryVariables>(/* GraphQL */ `
  query CampusPerson($id: ID!) {
    person(id: $id) {
      id databaseId firstName middleName lastName username accountLevel gender birthDate location about
      primaryEmail primaryPhone primaryPostal
      groupMemberships { databaseId role group { databaseId name fullPath } }
      sectionParticipations { databaseId role section { databaseId code title course { title } term { title } } }
    }
  }
`);
export type PersonRecord = NonNullable<G.CampusPersonQuery['person']>;

export const SECTION = doc<G.CampusSectionQuery, G.CampusSectionQueryVariables>(/* GraphQL */ `
  query CampusSection($id: ID!) {
    section(id: $id) {
      id databaseId code title handle status notes studentsCapacity studentsCount courseId termId locationId scheduleId
      course { databaseId code title }
      schedule { databaseId title handle }
      term { databaseId title }
      location { databaseId title }
      participants { databaseId role startDate endDate person { databaseId firstName lastName username } }
      blogPosts { databaseId title }
    }
  }
`);
export type SectionRecord = NonNullable<G.CampusSectionQuery['section']>;
export type Participant = SectionRecord['participants'][number];

export const COURSE = doc<G.CampusCourseQuery, G.CampusCourseQueryVariables>(/* GraphQL */ `
  query CampusCourse($id: ID!) {
    course(id: $id) {
      id databaseId code title handle status description prerequisites departmentId
      department { databaseId title code }
      sections { databaseId code title studentsCount term { title } }
    }
  }
`);
export type CourseRecord = NonNullable<G.CampusCourseQuery['course']>;

export const TERM = doc<G.CampusTermQuery, G.CampusTermQueryVariables>(/* GraphQL */ `
  query CampusTerm($id: ID!) {
    term(id: $id) {
      id databaseId title handle status starDate endDate parentId
      parent { databaseId title }
      children { databaseId title starDate endDate }
    }
    sections(termId: $id, first: 100) { totalCount nodes { databaseId code title course { title } } }
  }
`);
export type TermRecord = NonNullable<G.CampusTermQuery['term']>;

export const LOCATION = doc<G.CampusLocationQuery, G.CampusLocationQueryVariables>(/* GraphQL */ `
  query CampusLocation($id: ID!) {
    location(id: $id) {
      id databaseId title handle status description parentId
      parent { databaseId title }
      children { databaseId title }
    }
    sections(locationId: $id, first: 100) { totalCount nodes { databaseId code title course { title } } }
  }
`);
export type LocationRecord = NonNullable<G.CampusLocationQuery['location']>;

export const GROUP = doc<G.CampusGroupQuery, G.CampusGroupQueryVariables>(/* GraphQL */ `
  query CampusGroup($id: ID!) {
    group(id: $id) {
      id databaseId name handle status founded data fullPath population parentId
      parent { databaseId name }
      children { databaseId name population }
      members { databaseId role joined person { databaseId firstName lastName username } }
    }
  }
`);
export type GroupRecord = NonNullable<G.CampusGroupQuery['group']>;
export type GroupMemberRow = GroupRecord['members'][number];

export const BLOG_POST = doc<G.CampusBlogPostQuery, G.CampusBlogPostQueryVariables>(/* GraphQL */ `
  query CampusBlogPost($id: ID!) {
    blogPost(id: $id) {
      id databaseId title handle status visibility published authorId contextClass contextId tags
      author { databaseId firstName lastName }
      comments { databaseId created message }
    }
  }
`);
export type BlogPostRecord = NonNullable<G.CampusBlogPostQuery['blogPost']>;

export const PAGE = doc<G.CampusPageQuery, G.CampusPageQueryVariables>(/* GraphQL */ `
  query CampusPage($id: ID!) {
    page(id: $id) {
      id databaseId title handle status visibility published authorId contextClass contextId tags
      author { databaseId firstName lastName }
      comments { databaseId created message }
    }
  }
`);
export type PageRecord = NonNullable<G.CampusPageQuery['page']>;

// Creating, editing and deleting: the server validates (extensions.validationErrors).

export const CREATE_PERSON = doc<G.CampusCreatePersonMutation, G.CampusCreatePersonMutationVariables>(/* GraphQL */ `
  mutation CampusCreatePerson($input: PersonInput!) { createPerson(input: $input) { databaseId } }
`);
export const UPDATE_PERSON = doc<G.CampusUpdatePersonMutation, G.CampusUpdatePersonMutationVariables>(/* GraphQL */ `
  mutation CampusUpdatePerson($id: ID!, $input: PersonInput!) { updatePerson(id: $id, input: $input) { databaseId } }
`);
export const DELETE_PERSON = doc<G.CampusDeletePersonMutation, G.CampusDeletePersonMutationVariables>(/* GraphQL */ `
  mutation CampusDeletePerson($id: ID!) { deletePerson(id: $id) { databaseId } }
`);

export const CREATE_SECTION = doc<G.CampusCreateSectionMutation, G.CampusCreateSectionMutationVariables>(/* GraphQL */ `
  mutation CampusCreateSection($input: SectionInput!) { createSection(input: $input) { databaseId } }
`);
export const UPDATE_SECTION = doc<G.CampusUpdateSectionMutation, G.CampusUpdateSectionMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateSection($id: ID!, $input: SectionInput!) { updateSection(id: $id, input: $input) { databaseId } }
`);
export const DELETE_SECTION = doc<G.CampusDeleteSectionMutation, G.CampusDeleteSectionMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteSection($id: ID!) { deleteSection(id: $id) { databaseId } }
`);

export const CREATE_COURSE = doc<G.CampusCreateCourseMutation, G.CampusCreateCourseMutationVariables>(/* GraphQL */ `
  mutation CampusCreateCourse($input: CourseInput!) { createCourse(input: $input) { databaseId } }
`);
export const UPDATE_COURSE = doc<G.CampusUpdateCourseMutation, G.CampusUpdateCourseMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateCourse($id: ID!, $input: CourseInput!) { updateCourse(id: $id, input: $input) { databaseId } }
`);
export const DELETE_COURSE = doc<G.CampusDeleteCourseMutation, G.CampusDeleteCourseMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteCourse($id: ID!) { deleteCourse(id: $id) { databaseId } }
`);

export const CREATE_TERM = doc<G.CampusCreateTermMutation, G.CampusCreateTermMutationVariables>(/* GraphQL */ `
  mutation CampusCreateTerm($input: TermInput!) { createTerm(input: $input) { databaseId } }
`);
export const UPDATE_TERM = doc<G.CampusUpdateTermMutation, G.CampusUpdateTermMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateTerm($id: ID!, $input: TermInput!) { updateTerm(id: $id, input: $input) { databaseId } }
`);
export const DELETE_TERM = doc<G.CampusDeleteTermMutation, G.CampusDeleteTermMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteTerm($id: ID!) { deleteTerm(id: $id) { databaseId } }
`);

export const CREATE_LOCATION = doc<G.CampusCreateLocationMutation, G.CampusCreateLocationMutationVariables>(/* GraphQL */ `
  mutation CampusCreateLocation($input: LocationInput!) { createLocation(input: $input) { databaseId } }
`);
export const UPDATE_LOCATION = doc<G.CampusUpdateLocationMutation, G.CampusUpdateLocationMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateLocation($id: ID!, $input: LocationInput!) { updateLocation(id: $id, input: $input) { databaseId } }
`);
export const DELETE_LOCATION = doc<G.CampusDeleteLocationMutation, G.CampusDeleteLocationMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteLocation($id: ID!) { deleteLocation(id: $id) { databaseId } }
`);

export const CREATE_GROUP = doc<G.CampusCreateGroupMutation, G.CampusCreateGroupMutationVariables>(/* GraphQL */ `
  mutation CampusCreateGroup($input: GroupInput!) { createGroup(input: $input) { databaseId } }
`);
export const UPDATE_GROUP = doc<G.CampusUpdateGroupMutation, G.CampusUpdateGroupMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateGroup($id: ID!, $input: GroupInput!) { updateGroup(id: $id, input: $input) { databaseId } }
`);
export const DELETE_GROUP = doc<G.CampusDeleteGroupMutation, G.CampusDeleteGroupMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteGroup($id: ID!) { deleteGroup(id: $id) { databaseId } }
`);

export const CREATE_BLOG_POST = doc<G.CampusCreateBlogPostMutation, G.CampusCreateBlogPostMutationVariables>(/* GraphQL */ `
  mutation CampusCreateBlogPost($input: BlogPostInput!) { createBlogPost(input: $input) { databaseId } }
`);
export const UPDATE_BLOG_POST = doc<G.CampusUpdateBlogPostMutation, G.CampusUpdateBlogPostMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateBlogPost($id: ID!, $input: BlogPostInput!) { updateBlogPost(id: $id, input: $input) { databaseId } }
`);
export const DELETE_BLOG_POST = doc<G.CampusDeleteBlogPostMutation, G.CampusDeleteBlogPostMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteBlogPost($id: ID!) { deleteBlogPost(id: $id) { databaseId } }
`);

export const CREATE_PAGE = doc<G.CampusCreatePageMutation, G.CampusCreatePageMutationVariables>(/* GraphQL */ `
  mutation CampusCreatePage($input: PageInput!) { createPage(input: $input) { databaseId } }
`);
export const UPDATE_PAGE = doc<G.CampusUpdatePageMutation, G.CampusUpdatePageMutationVariables>(/* GraphQL */ `
  mutation CampusUpdatePage($id: ID!, $input: PageInput!) { updatePage(id: $id, input: $input) { databaseId } }
`);
export const DELETE_PAGE = doc<G.CampusDeletePageMutation, G.CampusDeletePageMutationVariables>(/* GraphQL */ `
  mutation CampusDeletePage($id: ID!) { deletePage(id: $id) { databaseId } }
`);

// Rosters and memberships (Staff).

export const ENROL = doc<G.CampusEnrolMutation, G.CampusEnrolMutationVariables>(/* GraphQL */ `
  mutation CampusEnrol($section: ID!, $person: ID!, $role: ParticipantRole!) {
    setSectionParticipant(section: $section, person: $person, role: $role) { databaseId role }
  }
`);

export const DROP = doc<G.CampusDropMutation, G.CampusDropMutationVariables>(/* GraphQL */ `
  mutation CampusDrop($section: ID!, $person: ID!) { removeSectionParticipant(section: $section, person: $person) }
`);

export const SET_GROUP_MEMBER = doc<G.CampusSetGroupMemberMutation, G.CampusSetGroupMemberMutationVariables>(/* GraphQL */ `
  mutation CampusSetGroupMember($group: ID!, $person: ID!, $role: GroupMemberRole) {
    setGroupMember(group: $group, person: $person, role: $role) { databaseId role }
  }
`);

export const PERSON_GROUP_IDS = doc<G.CampusPersonGroupIdsQuery, G.CampusPersonGroupIdsQueryVariables>(/* GraphQL */ `
  query CampusPersonGroupIds($id: ID!) { person(id: $id) { groupMemberships { group { databaseId } } } }
`);

export const SET_PERSON_GROUPS = doc<G.CampusSetPersonGroupsMutation, G.CampusSetPersonGroupsMutationVariables>(/* GraphQL */ `
  mutation CampusSetPersonGroups($person: ID!, $groups: [ID!]!) { setPersonGroups(person: $person, groups: $groups) }
`);

/** People matching what was typed, for the person pickers. */
export const PERSON_SUGGESTIONS = doc<G.CampusPersonSuggestionsQuery, G.CampusPersonSuggestionsQueryVariables>(/* GraphQL */ `
  query CampusPersonSuggestions($q: String) { people(q: $q, first: 10) { nodes { databaseId firstName lastName username } } }
`);

// The choices of a form's reference fields.

export const COURSE_OPTIONS = doc<G.CampusCourseOptionsQuery, G.CampusCourseOptionsQueryVariables>(/* GraphQL */ `
  query CampusCourseOptions { courses { nodes { databaseId code title } } }
`);
export const TERM_OPTIONS = doc<G.CampusTermOptionsQuery, G.CampusTermOptionsQueryVariables>(/* GraphQL */ `
  query CampusTermOptions { terms { nodes { databaseId title } } }
`);
export const LOCATION_OPTIONS = doc<G.CampusLocationOptionsQuery, G.CampusLocationOptionsQueryVariables>(/* GraphQL */ `
  query CampusLocationOptions { locations { nodes { databaseId title } } }
`);
export const GROUP_OPTIONS = doc<G.CampusGroupOptionsQuery, G.CampusGroupOptionsQueryVariables>(/* GraphQL */ `
  query CampusGroupOptions { groups { nodes { databaseId fullPath } } }
`);

// Live: records changing, and the checks linked to one record.

export const RECORD_CHANGED = doc<G.CampusRecordChangedSubscription, G.CampusRecordChangedSubscriptionVariables>(/* GraphQL */ `
  subscription CampusRecordChanged($kind: CampusKind) { recordChanged(kind: $kind) { action kind id } }
`);
export type RecordChangedData = G.CampusRecordChangedSubscription;

export const RECORD_CHECKS = doc<G.CampusRecordChecksQuery, G.CampusRecordChecksQueryVariables>(/* GraphQL */ `
  query CampusRecordChecks($id: ID!, $project: ID) {
    node(id: $id) {
      ... on Person { checks(project: $project) { uuid uniqueKey name status lastPing } }
      ... on Section { checks(project: $project) { uuid uniqueKey name status lastPing } }
      ... on Course { checks(project: $project) { uuid uniqueKey name status lastPing } }
      ... on Term { checks(project: $project) { uuid uniqueKey name status lastPing } }
      ... on Location { checks(project: $project) { uuid uniqueKey name status lastPing } }
      ... on Group { checks(project: $project) { uuid uniqueKey name status lastPing } }
      ... on BlogPost { checks(project: $project) { uuid uniqueKey name status lastPing } }
      ... on Page { checks(project: $project) { uuid uniqueKey name status lastPing } }
    }
  }
`);

export const RECORD_CHECKS_CHANGED = doc<G.CampusRecordChecksChangedSubscription, G.CampusRecordChecksChangedSubscriptionVariables>(/* GraphQL */ `
  subscription CampusRecordChecksChanged($kind: CampusKind!, $handle: String!, $project: ID) {
    recordChecksChanged(kind: $kind, handle: $handle, project: $project) { change check { uuid uniqueKey name status lastPing } }
  }
`);
export type RecordChecksChangedData = G.CampusRecordChecksChangedSubscription;
export type LinkedCheck = RecordChecksChangedData['recordChecksChanged']['check'];

/** The project's checks a record may be linked to (their UUIDs: members who may change checks). */
export const PROJECT_CHECKS = doc<G.CampusProjectChecksQuery, G.CampusProjectChecksQueryVariables>(/* GraphQL */ `
  query CampusProjectChecks($project: ID!) { project(id: $project) { checks(first: 1000) { nodes { uuid name } } } }
`);

export const LINK_CHECK = doc<G.CampusLinkCheckMutation, G.CampusLinkCheckMutationVariables>(/* GraphQL */ `
  mutation CampusLinkCheck($check: ID!, $kind: CampusKind!, $handle: String!) { linkCheckRecord(check: $check, kind: $kind, handle: $handle) { uniqueKey } }
`);

export const UNLINK_CHECK = doc<G.CampusUnlinkCheckMutation, G.CampusUnlinkCheckMutationVariables>(/* GraphQL */ `
  mutation CampusUnlinkCheck($check: ID!, $kind: CampusKind!, $handle: String!) { unlinkCheckRecord(check: $check, kind: $kind, handle: $handle) { uniqueKey } }
`);

// The project screens' documents: creating a project, its members, keys and audit log. Every
// one names the project by its UUID (a signed-in person may belong to several). Types from
// `npm run codegen`.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export type Role = G.ProjectRole;
export type KeyKind = G.ProjectKeyKind;

export const CREATE_PROJECT = doc<G.CreateProjectMutation, G.CreateProjectMutationVariables>(/* GraphQL */ `
  mutation CreateProject($name: String!) { createProject(name: $name) { uuid name } }
`);

export const MEMBERS = doc<G.MembersQuery, G.MembersQueryVariables>(/* GraphQL */ `
  query Members($project: ID!) {
    project(id: $project) { role members { username name role since } }
  }
`);
export type Member = G.MembersQuery['project']['members'][number];

export const CHANGE_ROLE = doc<G.ChangeRoleMutation, G.ChangeRoleMutationVariables>(/* GraphQL */ `
  mutation ChangeRole($project: ID!, $account: String!, $role: ProjectRole!) { changeMemberRole(project: $project, account: $account, role: $role) }
`);

export const REMOVE_MEMBER = doc<G.RemoveMemberMutation, G.RemoveMemberMutationVariables>(/* GraphQL */ `
  mutation RemoveMember($project: ID!, $account: String!) { removeMember(project: $project, account: $account) }
`);

export const LEAVE_PROJECT = doc<G.LeaveProjectMutation, G.LeaveProjectMutationVariables>(/* GraphQL */ `
  mutation LeaveProject($project: ID!) { leaveProject(project: $project) }
`);

export const TRANSFER_OWNERSHIP = doc<G.TransferOwnershipMutation, G.TransferOwnershipMutationVariables>(/* GraphQL */ `
  mutation TransferOwnership($project: ID!, $account: String!) { transferOwnership(project: $project, account: $account) }
`);

export const KEYS = doc<G.KeysQuery, G.KeysQueryVariables>(/* GraphQL */ `
  query Keys($project: ID!) { project(id: $project) { keys { kind name exists } } }
`);
export type KeyRow = G.KeysQuery['project']['keys'][number];

export const CREATE_KEY = doc<G.CreateKeyMutation, G.CreateKeyMutationVariables>(/* GraphQL */ `
  mutation CreateKey($project: ID!, $kind: ProjectKeyKind!) { createProjectKey(project: $project, kind: $kind) }
`);

export const REVOKE_KEY = doc<G.RevokeKeyMutation, G.RevokeKeyMutationVariables>(/* GraphQL */ `
  mutation RevokeKey($project: ID!, $kind: ProjectKeyKind!) { revokeProjectKey(project: $project, kind: $kind) }
`);

export const AUDIT_LOG = doc<G.AuditLogQuery, G.AuditLogQueryVariables>(/* GraphQL */ `
  query AuditLog($project: ID!, $after: Int) {
    project(id: $project) {
      auditLog(first: 50, after: $after) { nodes { id at actor action targetKind targetName detail } hasNextPage endCursor }
    }
  }
`);
export type AuditRow = G.AuditLogQuery['project']['auditLog']['nodes'][number];

export const INVITATIONS = doc<G.InvitationsQuery, G.InvitationsQueryVariables>(/* GraphQL */ `
  query Invitations($project: ID!) { project(id: $project) { invitations { id email role invitedBy createdAt expiresAt } } }
`);
export type InvitationRow = G.InvitationsQuery['project']['invitations'][number];

export const INVITE_MEMBER = doc<G.InviteMemberMutation, G.InviteMemberMutationVariables>(/* GraphQL */ `
  mutation InviteMember($project: ID!, $email: String!, $role: ProjectRole!) { inviteMember(project: $project, email: $email, role: $role) { id email role } }
`);

export const REVOKE_INVITATION = doc<G.RevokeInvitationMutation, G.RevokeInvitationMutationVariables>(/* GraphQL */ `
  mutation RevokeInvitation($project: ID!, $id: Int!) { revokeInvitation(project: $project, id: $id) }
`);

// The project settings screen (#/project): its name, status page, repeat alerts, ping log limit
// and badges, read in one request; each change answers with what it changed.
export const PROJECT_SETTINGS = doc<G.ProjectSettingsQuery, G.ProjectSettingsQueryVariables>(/* GraphQL */ `
  query ProjectSettings($project: ID!) {
    project(id: $project) {
      uuid name role pingLogLimit nagPeriod
      statusPage { slug tags url }
      badges { tag svg svg3 json json3 shields shields3 }
    }
  }
`);
export type ProjectSettingsData = G.ProjectSettingsQuery['project'];
export type BadgeRow = ProjectSettingsData['badges'][number];

export const PROJECT_SETTINGS_RENAME = doc<G.ProjectSettingsRenameMutation, G.ProjectSettingsRenameMutationVariables>(/* GraphQL */ `
  mutation ProjectSettingsRename($project: ID!, $name: String!) { renameProject(project: $project, name: $name) { uuid name } }
`);

export const PROJECT_SETTINGS_STATUS_PAGE = doc<G.ProjectSettingsStatusPageMutation, G.ProjectSettingsStatusPageMutationVariables>(/* GraphQL */ `
  mutation ProjectSettingsStatusPage($project: ID!, $slug: String, $tags: [String!]) {
    setStatusPage(project: $project, slug: $slug, tags: $tags) { uuid statusPage { slug tags url } }
  }
`);

export const PROJECT_SETTINGS_NAG_PERIOD = doc<G.ProjectSettingsNagPeriodMutation, G.ProjectSettingsNagPeriodMutationVariables>(/* GraphQL */ `
  mutation ProjectSettingsNagPeriod($project: ID!, $seconds: Int) { setNagPeriod(project: $project, seconds: $seconds) }
`);

export const PROJECT_SETTINGS_PING_LOG_LIMIT = doc<G.ProjectSettingsPingLogLimitMutation, G.ProjectSettingsPingLogLimitMutationVariables>(/* GraphQL */ `
  mutation ProjectSettingsPingLogLimit($project: ID!, $limit: Int!) { setPingLogLimit(project: $project, limit: $limit) { uuid pingLogLimit } }
`);

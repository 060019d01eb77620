// Project roles, Healthchecks' model: the owner (one per project), managers (members and keys),
// regular members (checks and channels), read-only members (view). A leaf module: monitoring
// reads roles and actors from here without importing the identity room.

export const ROLES = ['owner', 'manager', 'regular', 'readonly'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Checks and channels: everyone but read-only members (and read-only keys). */
export const mayWrite = (role: Role) => role !== 'readonly';
/** Members, invitations and keys: the owner and managers. */
export const mayManage = (role: Role) => role === 'owner' || role === 'manager';

/** Who did something, as the audit log records it. */
export interface Actor {
  /** The person, when a person acted (a session); null for an API key or the CLI. */
  personId: number | null;
  /** How the actor reads in the log: a username, "API key (read-write)", "CLI". */
  label: string;
}

export const CLI_ACTOR: Actor = { personId: null, label: 'CLI' };
export const READ_WRITE_KEY_ACTOR: Actor = { personId: null, label: 'API key (read-write)' };
export const READ_ONLY_KEY_ACTOR: Actor = { personId: null, label: 'API key (read-only)' };

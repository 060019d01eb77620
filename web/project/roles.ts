// What a role may do, as the server decides it (src/identity/roles.ts): the page only hides
// what would be refused anyway.
import type { Role } from './operations.ts';

export const ROLE_LABELS: Record<Role, string> = { OWNER: 'Owner', MANAGER: 'Manager', REGULAR: 'Regular', READONLY: 'Read-only' };

/** Members, invitations, keys and the audit log: the owner and managers. */
export const mayManage = (role: Role) => role === 'OWNER' || role === 'MANAGER';

/** The roles an owner or manager can give (the owner changes by transfer). */
export const ASSIGNABLE: Role[] = ['MANAGER', 'REGULAR', 'READONLY'];

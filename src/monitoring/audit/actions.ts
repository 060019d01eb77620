// What the audit log names (issue #24, part 6): one action per kind of change a project's owner
// or managers may want to trace back to a person or a key. Pure: the transports list these.

export const AUDIT_ACTIONS = [
  'check.created',
  'check.updated',
  'check.paused',
  'check.resumed',
  'check.deleted',
  'channel.created',
  'channel.updated',
  'channel.deleted',
  // The recipient, through an emailed link (integrations/consent.ts).
  'channel.verification_sent',
  'channel.verified',
  'channel.unsubscribed',
  'key.created',
  'key.revoked',
  'member.added',
  'member.role_changed',
  'member.removed',
  'member.left',
  'ownership.transferred',
  'invitation.sent',
  'invitation.accepted',
  'invitation.revoked',
  'project.created',
  'project.renamed',
  'project.ping_log_limit_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const isAuditAction = (value: string): value is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(value);

export const AUDIT_TARGET_KINDS = ['check', 'channel', 'key', 'member', 'invitation', 'project'] as const;
export type AuditTargetKind = (typeof AUDIT_TARGET_KINDS)[number];

// What the Twilio kinds' tests share: the settings that point Twilio at a local receiver, the
// form a request posted, and an account that owns a project (quotas count against it).
import type { World } from '../../../helpers/world.ts';
import type { HttpReceiver } from '../../../helpers/receivers.ts';
import type { CreatedProject } from '../../../../src/monitoring/projects/service.ts';
import { createAccount } from '../../../../src/identity/accounts.ts';

export function twilioEnv(receiver: HttpReceiver, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TWILIO_ACCOUNT: 'AC123',
    TWILIO_AUTH: 'secret',
    TWILIO_FROM: '+15550001111',
    TWILIO_API_URL: `${receiver.url}/twilio`,
    SITE_NAME: 'Campus Checks',
    SITE_ROOT: 'https://hc.example.org',
    ...extra,
  };
}

/** Healthchecks' WhatsApp settings, all of them. */
export const WHATSAPP_ON = { TWILIO_USE_WHATSAPP: 'True', TWILIO_MESSAGING_SERVICE_SID: 'MG42', WHATSAPP_DOWN_CONTENT_SID: 'HXdown', WHATSAPP_UP_CONTENT_SID: 'HXup' };

export const formOf = (body: string) => Object.fromEntries(new URLSearchParams(body));

/** A new account (address <username>@example.org) made the owner of `project`; returns its person id. */
export async function ownerOf(w: World, project: CreatedProject, username = `owner-${project.id.slice(0, 8)}`): Promise<number> {
  const account = await createAccount(w.app.db, { username, email: `${username}@example.org`, password: 'correct horse battery staple' });
  await w.app.db.projectMember.create({ data: { projectId: project.id, personId: account.id, role: 'owner' } });
  return account.id;
}

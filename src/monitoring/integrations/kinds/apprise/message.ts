// The Apprise title and body, after Healthchecks' apprise_title.html ("backup is DOWN") and
// apprise_description.html (the reason, or how long the check was down). Plain text: the
// templates' autoescaping would show "&amp;" in a name, so values are not escaped here.
import { reasonLong, reasonOf } from '../shared/incident.ts';
import { nameThenCode } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';

export function appriseTitle(d: Delivery): string {
  return `${nameThenCode(d.check)} is ${d.status.toUpperCase()}`;
}

/** The description; the title when the template gives nothing (the Apprise API refuses an empty body). */
export async function appriseBody(d: Delivery): Promise<string> {
  if (d.status === 'down') {
    const reason = reasonLong(reasonOf(d));
    return reason ? `Reason: ${reason}.` : appriseTitle(d);
  }
  const since = await d.downSince();
  return since ? `The downtime lasted ${durationForSentence(d.at.getTime() - since.getTime())}.` : appriseTitle(d);
}

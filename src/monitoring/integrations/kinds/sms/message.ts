// The text of an SMS alert.
import { describePing, nameThenCode } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

/** Healthchecks' sms_message: short, one line per fact, no non-breaking spaces. */
export async function smsText(d: Delivery): Promise<string> {
  const name = nameThenCode(d.check);
  const lead = d.reason === 'nag' ? `Reminder: the check "${name}" is still ${d.status.toUpperCase()}.` : `The check "${name}" is ${d.status.toUpperCase()}.`;
  const project = d.check.project.name ? ` Project: ${d.check.project.name}.` : '';
  return `${lead}${project} Last ping: ${describePing(await d.lastPing())}.`;
}

// The Pushbullet note's body, after Healthchecks' pushbullet_message.html (plain text, the
// name as |safe leaves it).
import { nameThenCode } from '../shared/text.ts';
import { reasonSuffix } from '../shared/incident.ts';
import type { Delivery } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';

export async function pushbulletBody(d: Delivery): Promise<string> {
  const name = nameThenCode(d.check);
  if (d.status === 'down') return `The check "${name}" is DOWN${reasonSuffix(d)}.`;
  const downSince = await d.downSince();
  const lasted = downSince ? `\nThe downtime lasted ${durationForSentence(d.at.getTime() - downSince.getTime())}.` : '';
  return `The check "${name}" is UP.${lasted}`;
}

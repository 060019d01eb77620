// What Opsgenie shows, after Healthchecks' Opsgenie transport: opsgenie_message.html (the name
// escaped, as Django's autoescape leaves it) and the alert's details.
import { formatDuration, nameThenCode, tagList } from '../shared/text.ts';
import { checkPageUrl, djangoEscape, kindAndWhen, reasonSuffix } from '../shared/incident.ts';
import type { Delivery } from '../shared/transport.ts';

export function opsgenieMessage(d: Delivery): string {
  return `The check "${djangoEscape(nameThenCode(d.check))}" is DOWN${reasonSuffix(d)}.`;
}

/** The alert's fields for a down alert (a close sends only its alias and source). */
export async function opsgenieAlert(d: Delivery): Promise<Record<string, unknown>> {
  const check = d.check;
  const ping = await d.lastPing();
  const details: Record<string, string | number> = { Project: check.project.name };
  details['Total pings'] = ping ? ping.n : 0;
  details['Last ping'] = ping ? kindAndWhen(d, ping) : 'Never';
  if (check.kind === 'simple') details.Period = formatDuration(check.timeout);
  else {
    details.Schedule = `<code>${check.schedule}</code>`;
    details['Time zone'] = check.tz;
  }
  details['Full details'] = checkPageUrl(d);
  return { tags: tagList(check.tags), message: opsgenieMessage(d), description: check.desc, details };
}

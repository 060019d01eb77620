// What PagerDuty shows, after Healthchecks' PagerDuty transport: pd_description.html (the name
// unescaped) and the details it sends with the event.
import { formatDuration, nameThenCode, tagList } from '../shared/text.ts';
import { kindAndWhen, reasonSuffix } from '../shared/incident.ts';
import type { Delivery } from '../shared/transport.ts';

/** A trigger's summary (a resolve carries none: "… received a ping and is now UP" goes nowhere in v2). */
export function pdSummary(d: Delivery): string {
  return `${nameThenCode(d.check)} is DOWN${reasonSuffix(d)}.`;
}

/** The event's details, in Healthchecks' order and words. */
export async function pdDetails(d: Delivery): Promise<Record<string, string | number>> {
  const check = d.check;
  const ping = await d.lastPing();
  const details: Record<string, string | number> = { Project: check.project.name };
  details['Total pings'] = ping ? ping.n : 0;
  details['Last ping'] = ping ? kindAndWhen(d, ping) : 'Never';
  if (check.desc) details.Description = check.desc;
  if (check.tags.trim()) details.Tags = tagList(check.tags).join(', ');
  if (check.kind === 'simple') details.Period = formatDuration(check.timeout);
  else {
    details.Schedule = check.schedule;
    details['Time zone'] = check.tz;
  }
  return details;
}

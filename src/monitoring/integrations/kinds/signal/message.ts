// The Signal message, after Healthchecks' signal_message.html (linemode: one fact a line), and
// its extract_signal_styles: <b> and <code> become Signal text styles over the plain text.
import { djangoEscape, htmlCheckFacts, reasonSuffix, otherDownLines } from '../shared/incident.ts';
import { nameThenCode } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';

/** The template's markup: HTML-escaped values, <b> and <code> around some. */
export async function signalMarkup(d: Delivery): Promise<string> {
  const name = djangoEscape(nameThenCode(d.check));
  const lines: string[] = [];
  if (d.status === 'down') lines.push(`The check <b>${name}</b> is <b>DOWN</b>${djangoEscape(reasonSuffix(d))}.`);
  else {
    const since = await d.downSince();
    const lasted = since ? ` The downtime lasted ${durationForSentence(d.at.getTime() - since.getTime())}.` : '';
    lines.push(`The check <b>${name}</b> is now <b>UP</b>.${lasted}`);
  }
  lines.push('');
  lines.push(...(await htmlCheckFacts(d)).lines);
  // Healthchecks prints these names `|safe`; escaped here, so a "<b>" in a name stays text.
  lines.push(...(await otherDownLines(d, (c, lastPing) => `• <b>${djangoEscape(nameThenCode(c))}</b> (last ping: ${lastPing})`)));
  return lines.join('\n').trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]!);

/**
 * Healthchecks' extract_signal_styles: the plain text and "start:length:STYLE" ranges (BOLD for
 * <b>, MONOSPACE for <code>; not nested). Offsets count UTF-16 units, as Signal's body ranges do
 * (Python counts code points: the same but after an emoji outside the BMP).
 */
export function extractSignalStyles(markup: string): { text: string; styles: string[] } {
  let text = '';
  const styles: string[] = [];
  let start = 0;
  for (const part of markup.split(/(<\/?(?:b|code)>)/)) {
    if (part === '<b>' || part === '<code>') start = text.length;
    else if (part === '</b>') styles.push(`${start}:${text.length - start}:BOLD`);
    else if (part === '</code>') styles.push(`${start}:${text.length - start}:MONOSPACE`);
    else text += unescape(part);
  }
  return { text, styles };
}

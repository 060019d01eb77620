// Zulip's channel value as Healthchecks stores it (AddZulipForm, json.dumps(sort_keys=True)):
// {"api_key", "bot_email", "mtype", "site", "to", "topic"}. Older values have no site (ZulipConf
// then takes the bot email's domain) or no topic (the message's own is used).
import { validationError } from '../../../../shared/errors.ts';
import { jsonObject, stringField } from '../shared/json-value.ts';
import { isHttpUrl } from '../shared/url.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface ZulipConf {
  botEmail: string;
  apiKey: string;
  /** "stream" (a stream and topic) or "private" (a direct message). */
  mtype: 'stream' | 'private';
  /** The stream's name, or the recipient's email or user id. */
  to: string;
  /** The Zulip server, e.g. https://example.zulipchat.com. */
  site: string;
  /** '' for the message's own ("<check> is DOWN"). */
  topic: string;
}

const FORM = 'value must be {"bot_email": "…", "api_key": "…", "site": "https://…", "mtype": "stream" or "private", "to": "…", "topic": "…"}';
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function zulipConf(value: string): ZulipConf {
  const doc = jsonObject(value);
  if (!doc) throw validationError(FORM);
  const botEmail = stringField(doc, 'bot_email');
  const apiKey = stringField(doc, 'api_key');
  const mtype = stringField(doc, 'mtype');
  const to = stringField(doc, 'to');
  const site = doc.site === undefined ? '' : stringField(doc, 'site');
  const topic = doc.topic === undefined ? '' : stringField(doc, 'topic');
  // AddZulipForm's limits: bot_email 100 (an email), api_key 50, site 100 (a URL), to 100, topic 100.
  if (botEmail === undefined || botEmail.length > 100 || !EMAIL.test(botEmail)) throw validationError('bot_email must be an email address of up to 100 characters');
  if (apiKey === undefined || apiKey.length < 1 || apiKey.length > 50) throw validationError('api_key must be 1 to 50 characters');
  if (mtype !== 'stream' && mtype !== 'private') throw validationError('mtype must be "stream" or "private"');
  if (to === undefined || to.length < 1 || to.length > 100) throw validationError('to must be 1 to 100 characters');
  if (site === undefined || site.length > 100 || (site !== '' && !isHttpUrl(site))) throw validationError('site is not a valid http(s) URL');
  if (topic === undefined || topic.length > 100) throw validationError('topic must be text of up to 100 characters');
  return { botEmail, apiKey, mtype, to, site: site || `https://${botEmail.split('@')[1]}`, topic };
}

/** ZulipConf.formatted_to: a direct message to a user id is a JSON list of one integer. */
export function formattedTo(conf: ZulipConf): string {
  return conf.mtype === 'private' && /^\d+$/.test(conf.to) ? `[${conf.to}]` : conf.to;
}

/** What `config` takes: AddZulipForm's fields, the topic optional (required=False). */
export type ZulipForm = Omit<ZulipConf, 'topic'> & { topic?: string };

/** AddZulipForm.get_value: json.dumps(cleaned_data, sort_keys=True), no topic stored as "". */
export const zulipConfig: ChannelConfigHooks<ZulipConf, ZulipForm> = {
  read: zulipConf,
  value: (conf) => pythonJson({ api_key: conf.apiKey, bot_email: conf.botEmail, mtype: conf.mtype, site: conf.site, to: conf.to, topic: conf.topic ?? '' }),
};

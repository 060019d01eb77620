// ntfy's channel value as Healthchecks stores it (NtfyConf, strict): {"priority", "priority_up",
// "token", "topic", "url"}, the keys sorted as its form writes them. A priority of 0 means
// "Disabled: Will not notify" for that status.
import { validationError } from '../../../../shared/errors.ts';
import { jsonObject, intField, stringField } from '../shared/json-value.ts';
import { isHttpUrl } from '../shared/url.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface NtfyConf {
  /** The ntfy server, e.g. https://ntfy.sh (messages are POSTed to it, the topic in the body). */
  url: string;
  topic: string;
  /** 1 (min) to 5 (max) for down alerts; 0: none are sent. */
  priority: number;
  /** The same for up alerts. */
  priorityUp: number;
  /** An access token for the topic; '' for none. */
  token: string;
}

export const NTFY_PRIORITIES = [0, 1, 2, 3, 4, 5] as const;

const FORM = 'value must be {"url": "<ntfy server>", "topic": "…", "priority": 0-5, "priority_up": 0-5, "token": "…"}';

export function ntfyConf(value: string): NtfyConf {
  const doc = jsonObject(value);
  if (!doc) throw validationError(FORM);
  const topic = stringField(doc, 'topic');
  const url = stringField(doc, 'url');
  const priority = intField(doc, 'priority');
  const priorityUp = intField(doc, 'priority_up');
  const token = doc.token === undefined ? '' : stringField(doc, 'token');
  // Healthchecks' NtfyForm: topic up to 64 characters, url up to 1000, token up to 100.
  if (topic === undefined || topic.length < 1 || topic.length > 64) throw validationError('topic must be 1 to 64 characters');
  if (url === undefined || url.length > 1000 || !isHttpUrl(url)) throw validationError('url is not a valid http(s) URL');
  for (const [name, p] of [['priority', priority], ['priority_up', priorityUp]] as const) {
    if (p === undefined || p < 0 || p > 5) throw validationError(`${name} must be a whole number from 0 (no notification) to 5 (max)`);
  }
  if (token === undefined || token.length > 100) throw validationError('token must be text of up to 100 characters');
  return { url, topic, priority: priority!, priorityUp: priorityUp!, token };
}

/** What `config` takes: the form's fields, the token optional (NtfyForm's required=False). */
export type NtfyForm = Omit<NtfyConf, 'token'> & { token?: string };

/** The value Healthchecks' form stores for these fields (json.dumps(cleaned_data, sort_keys=True); no token: ""). */
export function ntfyValue(conf: NtfyForm): string {
  return pythonJson({ priority: conf.priority, priority_up: conf.priorityUp, token: conf.token ?? '', topic: conf.topic, url: conf.url });
}

export const ntfyConfig: ChannelConfigHooks<NtfyConf, NtfyForm> = { read: ntfyConf, value: ntfyValue };

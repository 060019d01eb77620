// Gotify's channel value as Healthchecks stores it (GotifyConf, strict): {"priority",
// "priority_up", "token", "url"}, the keys sorted as its form writes them. Older values have no
// priorities (Gotify's app default then). A priority of 0 means "Disabled: Does not notify."
import { validationError } from '../../../../shared/errors.ts';
import { jsonObject, intField, stringField } from '../shared/json-value.ts';
import { isHttpUrl } from '../shared/url.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface GotifyConf {
  /** The Gotify server; messages go to <url>/message. */
  url: string;
  /** The application token. */
  token: string;
  /** 0 to 9 for down alerts, 0: none are sent; null: not given (Gotify's default). */
  priority: number | null;
  priorityUp: number | null;
}

const FORM = 'value must be {"url": "<Gotify server>", "token": "<app token>", "priority": 0-9, "priority_up": 0-9}';

export function gotifyConf(value: string): GotifyConf {
  const doc = jsonObject(value);
  if (!doc) throw validationError(FORM);
  const url = stringField(doc, 'url');
  const token = stringField(doc, 'token');
  // Healthchecks' GotifyForm: token up to 50 characters, url up to 1000.
  if (token === undefined || token.length < 1 || token.length > 50) throw validationError('token must be 1 to 50 characters');
  if (url === undefined || url.length > 1000 || !isHttpUrl(url)) throw validationError('url is not a valid http(s) URL');
  const prio = (name: string): number | null => {
    if (doc[name] === undefined || doc[name] === null) return null;
    const p = intField(doc, name);
    if (p === undefined || p < 0 || p > 9) throw validationError(`${name} must be a whole number from 0 (no notification) to 9`);
    return p;
  };
  return { url, token, priority: prio('priority'), priorityUp: prio('priority_up') };
}

/** What `config` takes: GotifyForm's fields, both priorities required as there. */
export type GotifyForm = { url: string; token: string; priority: number; priorityUp: number };

/** GotifyForm.get_value: json.dumps(cleaned_data, sort_keys=True). */
export const gotifyConfig: ChannelConfigHooks<GotifyConf, GotifyForm> = {
  read: gotifyConf,
  value: (conf) => pythonJson({ priority: conf.priority, priority_up: conf.priorityUp, token: conf.token, url: conf.url }),
};

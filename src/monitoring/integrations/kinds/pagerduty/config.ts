// PagerDuty's channel value as Healthchecks stores it (PdConf): the integration key as it is
// (the form's value), or {"service_key": "…", "account": "…"} (the Simple Install flow).
import { validationError } from '../../../../shared/errors.ts';
import { jsonObject, stringField } from '../shared/json-value.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface PdConf {
  /** The integration key: Events API v2's routing_key (v1 called it service_key). */
  serviceKey: string;
  /** The PagerDuty account's name (Simple Install only). */
  account: string | null;
}

// Healthchecks' AddPdForm: CharField(max_length=32); a key holds no spaces.
const KEY = /^[^\s]{1,32}$/;

const FORM = 'value must be a PagerDuty integration key (up to 32 characters), or {"service_key": "…", "account": "…"}';

/** The configuration a stored value holds; throws Healthchecks-style refusals for a malformed one. */
export function pdConf(value: string): PdConf {
  if (!value.trimStart().startsWith('{')) {
    if (!KEY.test(value)) throw validationError(FORM);
    return { serviceKey: value, account: null };
  }
  const doc = jsonObject(value) ?? {};
  const serviceKey = stringField(doc, 'service_key');
  if (serviceKey === undefined || !KEY.test(serviceKey)) throw validationError(FORM);
  const account = doc.account;
  if (account !== undefined && account !== null && typeof account !== 'string') throw validationError(FORM);
  return { serviceKey, account: account ?? null };
}

/** What `config` takes: the key, and the account of a Simple Install (left out: none). */
export type PdForm = Pick<PdConf, 'serviceKey'> & { account?: string | null };

/** AddPdForm stores the key as it is; the Simple Install, json.dumps({"service_key", "account"}). */
export const pdConfig: ChannelConfigHooks<PdConf, PdForm> = {
  read: pdConf,
  value: (conf) => (conf.account == null ? conf.serviceKey : pythonJson({ service_key: conf.serviceKey, account: conf.account })),
};

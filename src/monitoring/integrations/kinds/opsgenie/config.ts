// Opsgenie's channel value as Healthchecks stores it (OpsgenieConf): {"region": "us"|"eu", "key": "…"}.
import { validationError } from '../../../../shared/errors.ts';
import { jsonObject, stringField } from '../shared/json-value.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface OpsgenieConf {
  key: string;
  region: 'us' | 'eu';
}

const FORM = 'value must be {"key": "<Opsgenie API key>", "region": "us" or "eu"}';

export function opsgenieConf(value: string): OpsgenieConf {
  const doc = jsonObject(value) ?? {};
  const key = stringField(doc, 'key');
  const region = stringField(doc, 'region');
  if (key === undefined || region === undefined) throw validationError(FORM);
  // Healthchecks' AddOpsgenieForm: key CharField(max_length=40), region a choice of us and eu.
  if (!/^[^\s]{1,40}$/.test(key)) throw validationError('key must be an Opsgenie API key (up to 40 characters)');
  if (region !== 'us' && region !== 'eu') throw validationError('region must be "us" or "eu"');
  return { key, region };
}

/** The add_opsgenie view's json.dumps({"region": …, "key": …}): region first. */
export const opsgenieConfig: ChannelConfigHooks<OpsgenieConf> = {
  read: opsgenieConf,
  value: (conf) => pythonJson({ region: conf.region, key: conf.key }),
};

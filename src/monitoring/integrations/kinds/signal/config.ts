// Signal's channel value as Healthchecks stores it (PhoneConf): {"value": "+15551234567" or a
// username "name.42", "up": true, "down": true}. A bare number or username (what an API user
// types) is taken too, sending both statuses.
import { validationError } from '../../../../shared/errors.ts';
import { jsonObject, stringField } from '../shared/json-value.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface SignalConf {
  /** A phone number (+ and digits) or a Signal username ("name.42"). */
  recipient: string;
  up: boolean;
  down: boolean;
}

/** Healthchecks' SignalRecipientForm: a "." means a username, anything else a phone number. */
function validateRecipient(recipient: string): void {
  if (recipient.includes('.')) {
    if (!/^\w{3,48}\.\d{2,10}$/.test(recipient)) throw validationError('Invalid username format.');
  } else if (!/^\+\d{5,15}$/.test(recipient)) throw validationError('Invalid phone number format.');
}

export function signalConf(value: string): SignalConf {
  if (!value.trimStart().startsWith('{')) {
    validateRecipient(value);
    return { recipient: value, up: true, down: true };
  }
  const doc = jsonObject(value);
  if (!doc) throw validationError('value must be a phone number, a username, or {"value": "+15551234567", "up": true, "down": true}');
  const recipient = stringField(doc, 'value');
  if (recipient === undefined) throw validationError('value must be a phone number or username (text)');
  validateRecipient(recipient);
  const flag = (key: 'up' | 'down') => {
    const v = doc[key];
    // Healthchecks' form always writes both; a hand-written value without one sends that status.
    if (v === undefined || v === null) return true;
    if (typeof v !== 'boolean') throw validationError(`${key} must be true or false`);
    return v;
  };
  return { recipient, up: flag('up'), down: flag('down') };
}

/** What `config` takes: the recipient; a status left out is sent (as a bare number is read). */
export type SignalForm = Pick<SignalConf, 'recipient'> & Partial<SignalConf>;

/** SignalForm.get_json: json.dumps({"value": …, "up": …, "down": …}). */
export const signalConfig: ChannelConfigHooks<SignalConf, SignalForm> = {
  read: signalConf,
  value: (conf) => pythonJson({ value: conf.recipient, up: conf.up ?? true, down: conf.down ?? true }),
};

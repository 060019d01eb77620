// Trello's channel value as Healthchecks stores it (AddTrelloForm.get_value, TrelloConf, read
// strictly): {"board_name", "list_id", "list_name", "token"}, all text.
import { validationError } from '../../../../shared/errors.ts';
import { jsonObject, stringField } from '../shared/json-value.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface TrelloConf {
  token: string;
  boardName: string;
  listName: string;
  listId: string;
}

const FORM = 'value must be {"token": "…", "board_name": "…", "list_name": "…", "list_id": "…"}';

export function trelloConf(value: string): TrelloConf {
  const doc = jsonObject(value);
  if (!doc) throw validationError(FORM);
  const field = (key: string, max: number) => {
    const v = stringField(doc, key);
    if (v === undefined || v === '') throw validationError(`${key}: This field is required.`);
    if (v.length > max) throw validationError(`${key}: Ensure this value has at most ${max} characters (it has ${v.length}).`);
    return v;
  };
  const conf = { token: field('token', 1000), boardName: field('board_name', 100), listName: field('list_name', 100), listId: field('list_id', 32) };
  // The form's RegexField: Trello's ids are hexadecimal.
  if (!/^[0-9a-fA-F]{16,32}$/.test(conf.listId)) throw validationError('list_id: Enter a valid value.');
  return conf;
}

/** AddTrelloForm.get_value: json.dumps(cleaned_data, sort_keys=True). */
export const trelloConfig: ChannelConfigHooks<TrelloConf> = {
  read: trelloConf,
  value: (conf) => pythonJson({ board_name: conf.boardName, list_id: conf.listId, list_name: conf.listName, token: conf.token }),
};

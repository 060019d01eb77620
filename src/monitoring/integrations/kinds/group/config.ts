// A group's value as Healthchecks stores it (GroupForm.get_value): the member channels' UUIDs
// joined with ",". Members are channels of the group's project that are not groups themselves
// (Healthchecks' form offers `project.channel_set.exclude(kind="group")`).
import { validationError } from '../../../../shared/errors.ts';
import type { ChannelConfigHooks, ProjectChannels } from '../definition.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The member codes, in the stored order, without blanks or repeats. */
export function groupMembers(value: string): string[] {
  return [...new Set(value.split(',').map((code) => code.trim().toLowerCase()).filter(Boolean))];
}

/** Django's MultipleChoiceField refusal, with why the choice is not available here. */
const invalidChoice = (code: string, why: string) => validationError(`Select a valid choice. ${code} is not one of the available choices (${why}).`);

/** The value's form alone: UUIDs separated by commas (the importer's check; the project's comes after). */
export function validateGroupValue(value: string): void {
  const codes = groupMembers(value);
  if (codes.length === 0) throw validationError('value must list the member channels’ ids, separated by commas');
  for (const code of codes) if (!UUID.test(code)) throw invalidChoice(code, 'not a channel id');
}

/** Each member is a channel of the project and not a group (so neither the group itself). */
export function validateGroupMembers(value: string, project: ProjectChannels): void {
  const kinds = new Map(project.channels.map((c) => [c.code.toLowerCase(), c.kind]));
  for (const code of groupMembers(value)) {
    if (project.self !== null && code === project.self.toLowerCase()) throw invalidChoice(code, 'a group cannot be its own member');
    const kind = kinds.get(code);
    if (kind === undefined) throw invalidChoice(code, 'no channel of this project has that id');
    if (kind === 'group') throw invalidChoice(code, 'a group cannot be a member of a group');
  }
}

/** GroupForm.get_value: the members' UUIDs joined with ",". */
export const groupConfig: ChannelConfigHooks<{ members: string[] }> = {
  read: (value) => ({ members: groupMembers(value) }),
  value: (conf) => conf.members.join(','),
};

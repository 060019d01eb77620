// The project switcher: every project the person belongs to, by name (their role there is
// shown beside it, in the bar).
import type { ViewerData } from '../account/operations.ts';

interface Props {
  memberships: ViewerData['projects'];
  chosen: string;
  onChoose(uuid: string): void;
}

export function Switcher({ memberships, chosen, onChoose }: Props) {
  return (
    <span class="switcher brand">
      <label for="project-switcher" class="visually-hidden">Project</label>
      <select id="project-switcher" value={chosen} onChange={(e) => onChoose((e.currentTarget as HTMLSelectElement).value)}>
        {memberships.map((m) => (
          <option key={m.project.uuid} value={m.project.uuid}>
            {m.project.name}
          </option>
        ))}
      </select>
    </span>
  );
}

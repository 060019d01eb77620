// Status badges for READMEs and dashboards: one set for every check and one per tag in use.
// Each comes as an SVG image, JSON and a Shields.io endpoint (all three shown, with a preview of
// the image), with two states (up, down) or three (late too), chosen once for the screen. The
// URLs are signed and need no key; everyone in the project sees them.
import { useState } from 'preact/hooks';
import type { BadgeRow } from '../operations.ts';
import { CopyField } from './CopyField.tsx';

const FORMATS = [
  { id: 'svg', name: 'SVG' },
  { id: 'json', name: 'JSON' },
  { id: 'shields', name: 'Shields.io' },
] as const;
type Format = (typeof FORMATS)[number]['id'];
type States = 2 | 3;

const urlOf = (b: BadgeRow, format: Format, states: States) => b[states === 3 ? (`${format}3` as const) : format];
const tagLabel = (tag: string) => (tag === '*' ? 'every check' : `tag ${tag}`);

export function BadgesSection({ badges }: { badges: BadgeRow[] }) {
  const [states, setStates] = useState<States>(2);
  return (
    <section aria-labelledby="settings-badges">
      <h2 id="settings-badges">Badges</h2>
      <p class="hint">Show the checks’ state in a README or on a dashboard: as an image, as JSON, or through Shields.io. The addresses need no key; anyone who has one can read the badge.</p>
      <fieldset class="badge-options">
        <legend>States</legend>
        <label class="check"><input type="radio" name="badge-states" value="2" checked={states === 2} onChange={() => setStates(2)} /> Two: up, down</label>
        <label class="check"><input type="radio" name="badge-states" value="3" checked={states === 3} onChange={() => setStates(3)} /> Three: up, late, down</label>
      </fieldset>
      <ul class="badges">
        {badges.map((b, i) => (
          <li key={b.tag} class="card" data-badge={b.tag}>
            <h3>{b.tag === '*' ? 'Every check' : <>Tag <span class="tag">{b.tag}</span></>}</h3>
            <img class="badge-preview" src={urlOf(b, 'svg', states)} alt={`Badge for ${tagLabel(b.tag)}`} />
            {FORMATS.map((f) => (
              <CopyField key={f.id} id={`badge-${f.id}-${i}`} label={`${f.name} badge URL for ${tagLabel(b.tag)}`} value={urlOf(b, f.id, states)} />
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

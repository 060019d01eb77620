// Slate's relationship templates (Emergence\People\Relationship::$templates and getTemplates):
// each label, whether it makes a guardian, the gender it implies, and the inverse label by the
// other person's gender ("mother" of a boy: he is her "son"). Labels are matched without case;
// an inverse label is written in the case style of the label it answers ("Mother" → "Son").
import { GUARDIAN_CLASS } from './contact-access.ts';

type Gendered = { Male?: string; Female?: string; Neutral: string };
interface Template {
  gender?: 'Male' | 'Female';
  guardian?: boolean;
  inverse: Gendered;
}

const kin = (male: string, female: string, neutral: string): Gendered => ({ Male: male, Female: female, Neutral: neutral });
const CHILD = kin('son', 'daughter', 'child');
const GRANDCHILD = kin('grandson', 'granddaughter', 'grandchild');
const GREAT = kin('great grandson', 'great granddaughter', 'great grandchild');
const STEP = kin('stepson', 'stepdaughter', 'stepchild');
const FOSTER = kin('foster son', 'foster daughter', 'foster child');
const GOD = kin('godson', 'goddaughter', 'godchild');
const HOST = kin('host son', 'host daughter', 'host child');
const HOST_GRAND = kin('host grandson', 'host granddaughter', 'host grandchild');
const NIBLING = kin('nephew', 'niece', 'nibling');
const SIBLING = kin('brother', 'sister', 'sibling');

/** Slate's $templates, in its order. */
export const TEMPLATES: Record<string, Template> = {
  mother: { gender: 'Female', guardian: true, inverse: CHILD },
  father: { gender: 'Male', guardian: true, inverse: CHILD },
  parent: { guardian: true, inverse: CHILD },
  guardian: { guardian: true, inverse: { Neutral: 'ward' } },
  grandmother: { gender: 'Female', inverse: GRANDCHILD },
  grandfather: { gender: 'Male', inverse: GRANDCHILD },
  grandparent: { inverse: GRANDCHILD },
  'great grandmother': { gender: 'Female', inverse: GREAT },
  'great grandfather': { gender: 'Male', inverse: GREAT },
  'great grandparent': { inverse: GREAT },
  stepmother: { gender: 'Female', inverse: STEP },
  stepfather: { gender: 'Male', inverse: STEP },
  stepparent: { inverse: STEP },
  'foster mother': { gender: 'Female', guardian: true, inverse: FOSTER },
  'foster father': { gender: 'Male', guardian: true, inverse: FOSTER },
  'foster parent': { guardian: true, inverse: FOSTER },
  godmother: { gender: 'Female', inverse: GOD },
  godfather: { gender: 'Male', inverse: GOD },
  godparent: { inverse: GOD },
  'host mother': { gender: 'Female', inverse: HOST },
  'host father': { gender: 'Male', inverse: HOST },
  'host parent': { inverse: HOST },
  'host grandmother': { gender: 'Female', inverse: HOST_GRAND },
  'host grandfather': { gender: 'Male', inverse: HOST_GRAND },
  'host grandparent': { inverse: HOST_GRAND },
  aunt: { gender: 'Female', inverse: NIBLING },
  uncle: { gender: 'Male', inverse: NIBLING },
  pibling: { inverse: NIBLING },
  sister: { gender: 'Female', inverse: SIBLING },
  brother: { gender: 'Male', inverse: SIBLING },
  sibling: { inverse: SIBLING },
  cousin: { inverse: kin('cousin', 'cousin', 'cousin') },
  coach: { inverse: { Neutral: 'trainee' } },
};

const key = (label: string) => label.trim().toLowerCase().replace(/\s+/g, ' ');

/** Slate's getInverseRelationships: for an inverse label ("son"), the labels it answers by gender. */
function answered(label: string): Gendered | null {
  const out: Partial<Gendered> = {};
  for (const [name, t] of Object.entries(TEMPLATES)) if (Object.values(t.inverse).includes(label)) out[t.gender ?? 'Neutral'] = name;
  return Object.keys(out).length ? (out as Gendered) : null;
}

const pick = (g: Partial<Gendered>, gender: string | null | undefined) =>
  (gender === 'Male' || gender === 'Female' ? g[gender] : undefined) ?? g.Neutral ?? Object.values(g)[0] ?? null;

/** "Mother" → "Son" style: lower case stays lower, anything else is capitalized word by word. */
function inCaseOf(label: string, inverse: string) {
  return label === label.toLowerCase() ? inverse : inverse.replace(/(^|\s)\S/g, (c) => c.toUpperCase());
}

/**
 * The inverse label of `label` when the templates know it: the row says RelatedPerson is
 * Person's `label`; the inverse row says Person is RelatedPerson's <result>, chosen by
 * Person's gender (Slate's Male/Female/Neutral).
 */
export function inverseLabel(label: string, personGender: string | null | undefined): string | null {
  const k = key(label);
  const options = Object.hasOwn(TEMPLATES, k) ? TEMPLATES[k]!.inverse : answered(k);
  const found = options && pick(options, personGender);
  return found ? inCaseOf(label.trim(), found) : null;
}

/** The class a label's template gives its row: a guardian for mother, father, guardian…; null when no template names one. */
export function templateClass(label: string): string | null {
  const k = key(label);
  return Object.hasOwn(TEMPLATES, k) && TEMPLATES[k]!.guardian ? GUARDIAN_CLASS : null;
}

/** Slate's /relationships/*templates: every label with its class, implied gender and inverse labels. */
export function relationshipTemplates() {
  const out: Array<Record<string, unknown>> = [];
  const seen = new Set<string>();
  const add = (label: string, entry: Record<string, unknown>) => {
    if (seen.has(label)) return;
    seen.add(label);
    out.push(entry);
  };
  for (const [label, t] of Object.entries(TEMPLATES)) {
    add(label, {
      Relationship: { Label: label, ...(t.guardian ? { Class: GUARDIAN_CLASS } : {}) },
      ...(t.gender ? { Person: { Gender: t.gender } } : {}),
      InverseRelationship: { Label: t.inverse },
    });
    for (const [gender, inverse] of Object.entries(t.inverse)) {
      add(inverse, {
        Relationship: { Label: inverse },
        InverseRelationship: { Label: answered(inverse), ...(t.guardian ? { Class: GUARDIAN_CLASS } : {}) },
        ...(gender === 'Male' || gender === 'Female' ? { Person: { Gender: gender } } : {}),
      });
    }
  }
  return out;
}

// Slate's account levels, in order: a level includes every one before it. The screens use them
// only to leave out controls the server would refuse; the server decides every read and write.
export const LEVELS = ['Disabled', 'Contact', 'User', 'Student', 'Staff', 'Teacher', 'Administrator', 'Developer'] as const;
export type Level = (typeof LEVELS)[number];

export const atLeast = (level: string | null | undefined, needed: Level): boolean =>
  !!level && LEVELS.indexOf(level as Level) >= LEVELS.indexOf(needed);

/** The signed-in person as the campus sees them. */
export interface Me {
  personId: number;
  level: string;
  name: string;
}

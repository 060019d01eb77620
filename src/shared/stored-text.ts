// What stored text can hold. PostgreSQL text cannot hold NUL (a query carrying one fails, which
// would be a 500), and neither database's stored identifiers, slugs or tags contain one: a value
// with NUL therefore names nothing and matches nothing, decided before any query. A value to be
// stored with NUL is refused on both databases, so that what one holds the other can take.
export const holdsNul = (text: string): boolean => text.includes('\u0000');

/** The refusal of a value to be stored with NUL. */
export const NUL_REFUSED = (field: string) => `${field} must not contain NUL characters`;

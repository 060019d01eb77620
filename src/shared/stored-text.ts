// What stored text can hold. PostgreSQL text cannot hold NUL (a query carrying one fails, which
// would be a 500), and neither database's stored identifiers, slugs or tags contain one: a value
// with NUL therefore names nothing and matches nothing, decided before any query.
export const holdsNul = (text: string): boolean => text.includes('\u0000');

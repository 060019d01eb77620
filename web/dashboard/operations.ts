// The session's document: which project a key (or a signed-in person's chosen project) opens,
// and the caller's role there. The checks screens' documents are in web/checks/operations.ts.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export const OPEN_PROJECT = doc<G.OpenProjectQuery, G.OpenProjectQueryVariables>(/* GraphQL */ `
  query OpenProject($project: ID) { project(id: $project) { uuid name role } }
`);

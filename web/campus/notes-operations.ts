// Documents of a person's notes and a record's connector mappings (PersonNotes.tsx,
// RecordMappings.tsx). Types from `npm run codegen`.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export const PERSON_NOTES = doc<G.CampusPersonNotesQuery, G.CampusPersonNotesQueryVariables>(/* GraphQL */ `
  query CampusPersonNotes($id: ID!) {
    person(id: $id) {
      databaseId
      notes { databaseId subject message messageFormat status created sent author { databaseId firstName lastName } }
    }
  }
`);
export type NoteRow = NonNullable<NonNullable<G.CampusPersonNotesQuery['person']>['notes']>[number];

export const CREATE_NOTE = doc<G.CampusCreateNoteMutation, G.CampusCreateNoteMutationVariables>(/* GraphQL */ `
  mutation CampusCreateNote($person: ID!, $input: NoteInput!) { createNote(person: $person, input: $input) { databaseId } }
`);
export const UPDATE_NOTE = doc<G.CampusUpdateNoteMutation, G.CampusUpdateNoteMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateNote($id: ID!, $input: NoteInput!) { updateNote(id: $id, input: $input) { databaseId } }
`);
export const DELETE_NOTE = doc<G.CampusDeleteNoteMutation, G.CampusDeleteNoteMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteNote($id: ID!) { deleteNote(id: $id) { databaseId } }
`);

export const SECTION_MAPPINGS = doc<G.CampusSectionMappingsQuery, G.CampusSectionMappingsQueryVariables>(/* GraphQL */ `
  query CampusSectionMappings($id: ID!) {
    section(id: $id) { databaseId mappings { databaseId connector externalKey externalIdentifier source } }
  }
`);
export type MappingRow = NonNullable<NonNullable<G.CampusSectionMappingsQuery['section']>['mappings']>[number];

export const CREATE_MAPPING = doc<G.CampusCreateMappingMutation, G.CampusCreateMappingMutationVariables>(/* GraphQL */ `
  mutation CampusCreateMapping($kind: CampusKind!, $record: ID!, $input: ConnectorMappingInput!) {
    createMapping(kind: $kind, record: $record, input: $input) { databaseId contextId }
  }
`);
export const DELETE_MAPPING = doc<G.CampusDeleteMappingMutation, G.CampusDeleteMappingMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteMapping($id: ID!) { deleteMapping(id: $id) { databaseId } }
`);

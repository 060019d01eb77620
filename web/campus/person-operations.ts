// Documents of a person's contact points and relationships (PersonContacts.tsx). Types from
// `npm run codegen`.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export type ContactPointKind = G.ContactPointClass;

export const PERSON_CONTACTS = doc<G.CampusPersonContactsQuery, G.CampusPersonContactsQueryVariables>(/* GraphQL */ `
  query CampusPersonContacts($id: ID!) {
    person(id: $id) {
      databaseId
      contactPoints { databaseId kind label string primary }
      relationships { databaseId label guardian notes relatedPerson { databaseId firstName lastName } }
    }
  }
`);
type Person = NonNullable<G.CampusPersonContactsQuery['person']>;
export type ContactPointRow = NonNullable<Person['contactPoints']>[number];
export type RelationshipRow = NonNullable<Person['relationships']>[number];

export const CREATE_CONTACT_POINT = doc<G.CampusCreateContactPointMutation, G.CampusCreateContactPointMutationVariables>(/* GraphQL */ `
  mutation CampusCreateContactPoint($person: ID!, $kind: ContactPointClass!, $value: String!, $label: String, $primary: Boolean) {
    createContactPoint(person: $person, kind: $kind, value: $value, label: $label, primary: $primary) { databaseId }
  }
`);
export const UPDATE_CONTACT_POINT = doc<G.CampusUpdateContactPointMutation, G.CampusUpdateContactPointMutationVariables>(/* GraphQL */ `
  mutation CampusUpdateContactPoint($id: ID!, $value: String, $label: String, $primary: Boolean) {
    updateContactPoint(id: $id, value: $value, label: $label, primary: $primary) { databaseId }
  }
`);
export const DELETE_CONTACT_POINT = doc<G.CampusDeleteContactPointMutation, G.CampusDeleteContactPointMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteContactPoint($id: ID!) { deleteContactPoint(id: $id) }
`);
export const SET_RELATIONSHIP = doc<G.CampusSetRelationshipMutation, G.CampusSetRelationshipMutationVariables>(/* GraphQL */ `
  mutation CampusSetRelationship($person: ID!, $relatedPerson: ID!, $label: String!, $notes: String) {
    setRelationship(person: $person, relatedPerson: $relatedPerson, label: $label, notes: $notes) { databaseId inverse { label } }
  }
`);
export const DELETE_RELATIONSHIP = doc<G.CampusDeleteRelationshipMutation, G.CampusDeleteRelationshipMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteRelationship($id: ID!) { deleteRelationship(id: $id) }
`);

// The body of a blog post or page: its items (rendered HTML, sanitized by the server) for the
// record page, their source for the editor, and setContentItems. Types from `npm run codegen`.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export const BLOG_POST_ITEMS = doc<G.CampusBlogPostItemsQuery, G.CampusBlogPostItemsQueryVariables>(/* GraphQL */ `
  query CampusBlogPostItems($id: ID!) {
    blogPost(id: $id) { items { databaseId class title status order data html } }
  }
`);

export const PAGE_ITEMS = doc<G.CampusPageItemsQuery, G.CampusPageItemsQueryVariables>(/* GraphQL */ `
  query CampusPageItems($id: ID!) {
    page(id: $id) { items { databaseId class title status order data html } }
  }
`);

// By the record's global `id` (the record page has it, whichever of the two kinds it shows).
export const CONTENT_ITEMS = doc<G.CampusContentItemsQuery, G.CampusContentItemsQueryVariables>(/* GraphQL */ `
  query CampusContentItems($id: ID!) {
    node(id: $id) {
      ... on BlogPost { items { databaseId html } }
      ... on Page { items { databaseId html } }
    }
  }
`);

export type ContentItemRow = NonNullable<G.CampusBlogPostItemsQuery['blogPost']>['items'][number];

export const SET_CONTENT_ITEMS = doc<G.CampusSetContentItemsMutation, G.CampusSetContentItemsMutationVariables>(/* GraphQL */ `
  mutation CampusSetContentItems($content: ID!, $items: [ContentItemInput!]!) {
    setContentItems(content: $content, items: $items) { databaseId class title status order data html }
  }
`);
export type ContentItemInput = G.ContentItemInput;

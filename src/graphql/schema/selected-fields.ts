// The fields a document selects below some field nodes, with inline fragments and fragment
// spreads flattened (each spread once per path, so a cycle cannot loop). Directives are not
// evaluated: a field under @skip/@include counts as selected, which is what planning reads
// wants (reading a column too many is harmless, one too few is not).
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The field nodes `path` (field names, e.g. ['nodes']) below `fieldNodes`; with an empty path,
 * the fields directly below them.
 */
export function selectedFields(
  fieldNodes: readonly FieldNode[],
  fragments: GraphQLResolveInfo['fragments'],
  path: readonly string[] = [],
): FieldNode[] {
  const found: FieldNode[] = [];
  const visit = (set: SelectionSetNode | undefined, depth: number, seen: ReadonlySet<string>) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.INLINE_FRAGMENT) visit(s.selectionSet, depth, seen);
      else if (s.kind === Kind.FRAGMENT_SPREAD) {
        if (!seen.has(s.name.value)) visit(fragments[s.name.value]?.selectionSet, depth, new Set(seen).add(s.name.value));
      } else if (depth === path.length) found.push(s);
      else if (s.name.value === path[depth]) visit(s.selectionSet, depth + 1, seen);
    }
  };
  for (const node of fieldNodes) visit(node.selectionSet, 0, new Set());
  return found;
}

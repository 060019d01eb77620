// A record's connector mappings under the record: `/<prefix>/<h>/mappings` lists them (Staff)
// and takes a new one (POST, Administrator), `/<prefix>/<h>/mappings/<id>/delete` removes one.
// Slate has no mappings route (its connectors write them); the paths follow its `comment` one.
import { KIND_LIST } from '../../src/campus/kinds.ts';
import { createMapping, deleteMapping, recordMappings } from '../../src/campus/mappings.ts';
import { requireActiveProfile, type CampusDeps } from '../../src/campus/service.ts';
import type { Route } from './handler.ts';
import { readFields } from './request.ts';
import { linkJson } from './serialize.ts';

export function registerMappingRoutes(route: Route, deps: CampusDeps) {
  for (const kind of KIND_LIST) {
    const base = `/${kind.prefix}/:ident/mappings`;
    // A Disabled person's routes are "profile not found", as all of theirs are (routes.ts).
    const active = (ident: string) => (kind.name === 'Person' ? requireActiveProfile(deps, ident) : Promise.resolve());

    route(['GET', 'POST'], base, async ({ req, viewer, params }) => {
      await active(params.ident!);
      if (req.method === 'POST') {
        const { mapping, repointed } = await createMapping(deps, viewer, kind, params.ident!, await readFields(req));
        return { success: true, data: linkJson(mapping), repointed };
      }
      const { mappings } = await recordMappings(deps, viewer, kind, params.ident!);
      return { success: true, data: mappings.map(linkJson) };
    });

    route(['POST'], `${base}/:mapping/delete`, async ({ viewer, params }) => {
      await active(params.ident!);
      const mapping = await deleteMapping(deps, viewer, params.mapping!, { kind, ident: params.ident! });
      return { success: true, data: linkJson(mapping) };
    });
  }
}

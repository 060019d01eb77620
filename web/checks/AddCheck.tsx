// "Add check" (#/checks/new): the check form, then the new check's page, where its ping URL is.
import { query } from '../lib/graphql.ts';
import type { Session } from '../dashboard/session.ts';
import { CHECK_CREATE } from './operations.ts';
import { CheckForm, newCheckValues } from './CheckForm.tsx';
import { listAddress } from './list-address.ts';

export interface AddCheckProps {
  session: Session;
}

export function AddCheck({ session }: AddCheckProps) {
  return (
    <section class="check-edit">
      <p><a href={listAddress()}>← All checks</a></p>
      <h1>Add check</h1>
      <CheckForm
        initial={newCheckValues()}
        creating
        onSave={async (input) => {
          const { createCheck } = await query(CHECK_CREATE, { project: session.project, input }, session.key);
          location.hash = `#/checks/${createCheck.check.uniqueKey}`;
        }}
      />
    </section>
  );
}

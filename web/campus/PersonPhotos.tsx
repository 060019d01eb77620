// A person's photos (Slate's Person `Photos` and `PrimaryPhoto`) on their page: the primary
// photo, the others as thumbnails, and for Staff and the person themselves an upload form,
// "Make primary" and delete. What shows is read again after each change.
import { useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { query } from '../lib/graphql.ts';
import { ErrorText, Notice, useLoaded } from './common.tsx';
import { atLeast, type Me } from './levels.ts';
import * as Op from './media-operations.ts';

interface Props {
  personId: number;
  me: Me;
  failure: (err: unknown) => string;
  /** Changes when the person changed elsewhere (their page read them again): the panel reads again too. */
  revision?: unknown;
}

export function PersonPhotos({ personId, me, failure, revision }: Props) {
  const { value: person, error, done, busy, run } = useLoaded(async () => (await query(Op.PERSON_PHOTOS, { id: String(personId) })).person, failure, [personId, revision]);
  const manage = atLeast(me.level, 'Staff') || me.personId === personId;
  const [file, setFile] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const [formKey, setFormKey] = useState(0);
  if (person === null) return null;
  const photos = person?.photos ?? [];
  const primary = person?.primaryPhoto ?? null;
  const label = (p: { databaseId: number; caption?: string | null }) => p.caption || `Photo ${p.databaseId}`;

  return (
    <section class="related photos" aria-label="Photos">
      <h2>Photos {person && <span class="hint">({photos.length})</span>}</h2>
      <ErrorText message={error} />
      <Notice message={done} />
      {person === undefined ? (
        !error && <p>Loading…</p>
      ) : (
        <>
          {primary ? (
            <figure class="primary-photo" data-primary-photo={primary.databaseId}>
              <a href={primary.url}><img src={primary.thumbnailUrl ?? primary.url} alt={`Primary photo: ${label(primary)}`} /></a>
              {primary.caption && <figcaption>{primary.caption}</figcaption>}
            </figure>
          ) : (
            <p class="hint">No photo yet.</p>
          )}
          {photos.length > 0 && (
            <ul class="photo-list">
              {photos.map((p) => (
                <li key={p.databaseId} data-photo={p.databaseId}>
                  <a href={p.url}><img src={p.thumbnailUrl ?? p.url} alt={label(p)} width={150} height={150} loading="lazy" /></a>
                  {p.caption && <span class="hint">{p.caption}</span>}
                  {manage && (
                    <span class="actions">
                      {primary?.databaseId === p.databaseId ? (
                        <span class="hint">Primary</span>
                      ) : (
                        <button type="button" class="secondary" disabled={busy} aria-label={`Make primary: ${label(p)}`} onClick={() => run(() => query(Op.SET_PRIMARY_PHOTO, { person: String(personId), media: String(p.databaseId) }), 'The primary photo was changed.')}>
                          Make primary
                        </button>
                      )}{' '}
                      <ConfirmButton label="Delete" name={`Delete ${label(p)}`} question={`Delete ${label(p)}? This cannot be undone.`} disabled={busy} onConfirm={() => run(() => query(Op.DELETE_MEDIA, { id: String(p.databaseId) }), 'The photo was deleted.')} />
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
          {manage && (
            <form
              key={formKey}
              class="campus-add photo-form"
              onSubmit={async (e) => {
                e.preventDefault();
                if (!file) return;
                // The server checks the file (type, size, that it is an image) and says what is wrong.
                if (await run(() => Op.uploadPhoto(personId, file, caption), 'The photo was uploaded.')) {
                  setFile(null);
                  setCaption('');
                  setFormKey(formKey + 1);
                }
              }}
            >
              <fieldset>
                <legend>Upload a photo</legend>
                <div class="field">
                  <label for="photo-file">Photo (JPEG, PNG, GIF or WebP, at most 10 MB)</label>
                  <input id="photo-file" type="file" accept="image/jpeg,image/png,image/gif,image/webp" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
                </div>
                <div class="field">
                  <label for="photo-caption">Caption</label>
                  <input id="photo-caption" maxLength={255} value={caption} onInput={(e) => setCaption(e.currentTarget.value)} />
                </div>
                <button type="submit" disabled={busy || !file}>Upload</button>
              </fieldset>
            </form>
          )}
        </>
      )}
    </section>
  );
}

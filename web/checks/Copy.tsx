// "Copy" for a value a person pastes elsewhere (a ping URL, a snippet): the clipboard when the
// browser allows it, else the text selected in a hidden field and copied the old way; and a
// word in a live region either way, so that a screen reader hears what happened.
import { useState } from 'preact/hooks';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (plain http), or no permission: the selection and execCommand.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/** `what` completes the accessible name: "Copy ping URL". */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  return (
    <span class="copy">
      <button type="button" class="secondary" aria-label={`Copy ${what}`} data-copy={text} onClick={async () => setOutcome((await copyText(text)) ? 'copied' : 'failed')}>
        Copy
      </button>
      <span class="hint" role="status">{outcome === 'copied' ? 'Copied.' : outcome === 'failed' ? 'Select it and copy by hand.' : ''}</span>
    </span>
  );
}

// A value to copy (a key, a badge or status page URL): a read-only field with a Copy button.
// The clipboard may be refused (an address that is not a secure context, a denied permission):
// then the text is selected for the person to copy themselves.
import { useRef, useState } from 'preact/hooks';

interface Props {
  id: string;
  /** The field's name, e.g. "SVG badge URL for every check"; the button reads "Copy <label>". */
  label: string;
  value: string;
  /** Keep the label for screen readers only (a table row already says what the value is). */
  labelHidden?: boolean;
}

export function CopyField({ id, label, value, labelHidden }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setNote('Copied.');
    } catch {
      input.current?.select();
      setNote('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };
  return (
    <span class="copy-field">
      <label for={id} class={labelHidden ? 'visually-hidden' : undefined}>{label}</label>
      <span class="copy-row">
        <input id={id} ref={input} readOnly value={value} spellcheck={false} autocomplete="off" onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} onInput={() => setNote('')} />
        <button type="button" class="secondary" aria-label={`Copy ${label}`} onClick={() => void copy()}>Copy</button>
      </span>
      <span class="hint copy-note" role="status">{note}</span>
    </span>
  );
}

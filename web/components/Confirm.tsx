// A button for something that cannot be undone: the first press asks, the second does it. No
// window.confirm(): it blocks the page and cannot be styled or labelled.
import { useEffect, useRef, useState } from 'preact/hooks';

interface Props {
  label: string;
  /** The accessible name, when the visible label alone is ambiguous (e.g. "Remove ada"). */
  name?: string;
  question: string;
  onConfirm(): unknown;
  disabled?: boolean;
}

export function ConfirmButton({ label, name, question, onConfirm, disabled }: Props) {
  const [asking, setAsking] = useState(false);
  // The first button goes away when pressed: focus moves to the answer (a keyboard user would
  // otherwise be sent back to the top of the page), and back to the button on "Cancel".
  const yes = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);
  useEffect(() => {
    if (asking) yes.current?.focus();
    else if (returnFocus) ask.current?.focus();
  }, [asking]);
  if (!asking) return <button type="button" class="secondary" ref={ask} aria-label={name} disabled={disabled} onClick={() => setAsking(true)}>{label}</button>;
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>{' '}
      <button type="button" class="danger" ref={yes} onClick={() => { setReturnFocus(false); setAsking(false); void onConfirm(); }}>Yes, {label.toLowerCase()}</button>{' '}
      <button type="button" class="link" onClick={() => { setReturnFocus(true); setAsking(false); }}>Cancel</button>
    </span>
  );
}

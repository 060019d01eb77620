// The dashboard at /: a person signs in with their account (the first choice), or a wall
// display opens one project with an API key (the secondary way, kept per tab).
import { useState } from 'preact/hooks';
import { Account } from './account/Account.tsx';
import { hasStoredKey, KeyDisplay } from './dashboard/KeyDisplay.tsx';

export function App() {
  const [mode, setMode] = useState<'account' | 'key'>(() => (hasStoredKey() ? 'key' : 'account'));
  return mode === 'key' ? <KeyDisplay onUseAccount={() => setMode('account')} /> : <Account onUseKey={() => setMode('key')} />;
}

/** The ten one-time recovery codes, shown once: each signs in in place of a code from the app. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  return (
    <div className="recovery-codes">
      <p className="status-on">Two-factor sign-in is on.</p>
      <p>Keep these recovery codes somewhere safe. Each one signs you in once without your phone; they are not shown again.</p>
      <ol aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" className="primary" onClick={onDone}>
        I have saved them
      </button>
    </div>
  );
}

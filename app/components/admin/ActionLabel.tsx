/**
 * A short visible label with a fuller name for screen readers: either read instead of it
 * (`readAs`: "Delete" shown, "Delete Rina" read) or read after it (`readAlso`: " Rina").
 */
export type SpokenName = { readAs: string; readAlso?: never } | { readAlso: string; readAs?: never };

export function ActionLabel({ label, readAs, readAlso }: { label: string } & SpokenName) {
  if (readAs !== undefined) {
    return (
      <>
        <span aria-hidden="true">{label}</span>
        <span className="visually-hidden">{readAs}</span>
      </>
    );
  }
  return (
    <>
      {label}
      <span className="visually-hidden">{readAlso}</span>
    </>
  );
}
